import { useId, type TextareaHTMLAttributes } from 'react';
import styled from 'styled-components';
import { useTranslateErrorMessage } from '@portal/shared-ui';

const Wrapper = styled.div`
  display: flex;
  flex-direction: column;
  gap: ${({ theme }) => theme.space.xs};
  margin-bottom: ${({ theme }) => theme.space.md};

  label {
    font-weight: ${({ theme }) => theme.fontWeights.medium};
  }
`;

const TextArea = styled.textarea`
  width: 100%;
  min-height: 120px;
  padding: ${({ theme }) => `${theme.space.sm} ${theme.space.md}`};
  border: 1px solid ${({ theme }) => theme.colors.borderStrong};
  border-radius: ${({ theme }) => theme.radii.sm};
  background: ${({ theme }) => theme.colors.surface};
  color: ${({ theme }) => theme.colors.text};
  font: inherit;
  resize: vertical;

  &[aria-invalid='true'] {
    border-color: ${({ theme }) => theme.colors.danger};
    border-width: 2px;
  }
`;

const Help = styled.div`
  font-size: ${({ theme }) => theme.fontSizes.sm};
  color: ${({ theme }) => theme.colors.textMuted};
`;

const ErrorText = styled.div`
  font-size: ${({ theme }) => theme.fontSizes.sm};
  color: ${({ theme }) => theme.colors.errorText};
  font-weight: ${({ theme }) => theme.fontWeights.medium};

  p {
    margin: 0;
  }
`;

export type TextAreaFieldProps = Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'children'> & {
  label: string;
  /** Shown under the field, e.g. a character counter. */
  help?: string;
  /** Messages under the field; server texts are translated through 'errorMessage.*'. */
  errors?: readonly string[];
};

/** A multi-line text field with the same label/help/error wiring as shared-ui's fields. */
export function TextAreaField({ label, help, errors = [], id: givenId, required, ...textarea }: TextAreaFieldProps) {
  const generatedId = useId();
  const translate = useTranslateErrorMessage();
  const id = givenId ?? generatedId;
  const describedBy = [help ? `${id}-help` : null, errors.length ? `${id}-error` : null].filter(Boolean).join(' ');
  return (
    <Wrapper>
      <label htmlFor={id}>
        {label}
        {required && <span aria-hidden="true"> *</span>}
      </label>
      <TextArea
        {...textarea}
        id={id}
        aria-required={required || undefined}
        aria-describedby={describedBy || undefined}
        aria-invalid={errors.length > 0 || undefined}
      />
      {help && <Help id={`${id}-help`}>{help}</Help>}
      {errors.length > 0 && (
        <ErrorText id={`${id}-error`}>
          {errors.map((message, i) => (
            <p key={i}>{translate(message)}</p>
          ))}
        </ErrorText>
      )}
    </Wrapper>
  );
}

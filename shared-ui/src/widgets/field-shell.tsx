import { useId, type ReactNode } from 'react';
import styled from 'styled-components';
import { useTranslateErrorMessage } from '@portal/shared-ui';

const Wrapper = styled.div`
  display: flex;
  flex-direction: column;
  gap: ${({ theme }) => theme.space.xs};
  margin-bottom: ${({ theme }) => theme.space.md};
`;

const Label = styled.label`
  font-weight: ${({ theme }) => theme.fontWeights.medium};
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

export type FieldError = string | readonly string[] | null | undefined | false;

export interface FieldTextProps {
  label: ReactNode;
  /** Guidance shown under the label. */
  help?: ReactNode;
  /** Message(s) shown under the field; server messages are translated via 'errorMessage.*'. */
  error?: FieldError;
}

export interface FieldIds {
  id: string;
  describedBy: string | undefined;
  invalid: boolean;
}

function errorList(error: FieldError): readonly string[] {
  if (!error) return [];
  return typeof error === 'string' ? [error] : error.filter(Boolean);
}

/**
 * Label, help and error around a control. `children` receives the ids that tie them together
 * (aria-describedby, aria-invalid).
 */
export function FieldShell({
  id: givenId,
  label,
  help,
  error,
  required,
  inline = false,
  children,
}: FieldTextProps & {
  id?: string;
  required?: boolean;
  /** Label after the control (checkboxes). */
  inline?: boolean;
  children: (ids: FieldIds) => ReactNode;
}) {
  const generatedId = useId();
  const translate = useTranslateErrorMessage();
  const id = givenId ?? generatedId;
  const helpId = `${id}-help`;
  const errorId = `${id}-error`;
  const errors = errorList(error);
  const describedBy =
    [help ? helpId : null, errors.length ? errorId : null].filter(Boolean).join(' ') || undefined;
  const ids = { id, describedBy, invalid: errors.length > 0 };

  const labelEl = (
    <Label htmlFor={id}>
      {label}
      {required && <span aria-hidden="true"> *</span>}
    </Label>
  );

  return (
    <Wrapper>
      {inline ? (
        <InlineRow>
          {children(ids)}
          {labelEl}
        </InlineRow>
      ) : (
        <>
          {labelEl}
          {children(ids)}
        </>
      )}
      {help && <Help id={helpId}>{help}</Help>}
      {errors.length > 0 && (
        <ErrorText id={errorId}>
          {errors.map((message, i) => (
            <p key={i}>{translate(message)}</p>
          ))}
        </ErrorText>
      )}
    </Wrapper>
  );
}

const InlineRow = styled.div`
  display: flex;
  align-items: center;
  gap: ${({ theme }) => theme.space.sm};
`;

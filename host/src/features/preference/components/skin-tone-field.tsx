import { useId } from 'react';
import styled from 'styled-components';
import type { LookupItem } from '@portal/contract';
import { useTranslateErrorMessage } from '@portal/shared-ui';

const Fieldset = styled.fieldset`
  border: 0;
  padding: 0;
  margin: ${({ theme }) => `0 0 ${theme.space.md}`};

  legend {
    font-weight: ${({ theme }) => theme.fontWeights.medium};
    margin-bottom: ${({ theme }) => theme.space.xs};
  }
`;

const Swatches = styled.div`
  display: flex;
  gap: ${({ theme }) => theme.space.md};
`;

const Swatch = styled.label`
  display: flex;
  flex-direction: column;
  align-items: center;
  gap: ${({ theme }) => theme.space.xs};
  cursor: pointer;
  font-size: ${({ theme }) => theme.fontSizes.sm};

  input {
    position: absolute;
    opacity: 0;
    width: 1px;
    height: 1px;
  }

  span[aria-hidden] {
    width: 40px;
    height: 40px;
    border-radius: 50%;
    border: 2px solid ${({ theme }) => theme.colors.borderStrong};
  }

  input:checked + span[aria-hidden] {
    outline: 3px solid ${({ theme }) => theme.colors.primary};
    outline-offset: 2px;
  }

  input:focus-visible + span[aria-hidden] {
    box-shadow: 0 0 0 3px ${({ theme }) => theme.colors.focus};
  }
`;

const ErrorText = styled.p`
  margin: ${({ theme }) => `${theme.space.xs} 0 0`};
  font-size: ${({ theme }) => theme.fontSizes.sm};
  color: ${({ theme }) => theme.colors.errorText};
`;

export interface SkinToneFieldProps {
  legend: string;
  options: readonly LookupItem[];
  value: number | null;
  onChange: (id: number) => void;
  errors?: readonly string[];
}

/** The skin-tone lookup as colour swatches: a radio group, named by each tone's lookup name. */
export function SkinToneField({ legend, options, value, onChange, errors }: SkinToneFieldProps) {
  const name = useId();
  const errorId = `${name}-error`;
  const translate = useTranslateErrorMessage();
  return (
    <Fieldset aria-describedby={errors?.length ? errorId : undefined}>
      <legend>{legend}</legend>
      <Swatches role="radiogroup" aria-label={legend}>
        {options.map((option) => (
          <Swatch key={option.id}>
            <input
              type="radio"
              name={name}
              value={option.id}
              checked={value === option.id}
              onChange={() => onChange(option.id)}
            />
            <span aria-hidden style={{ background: option.code ?? 'transparent' }} />
            {option.name}
          </Swatch>
        ))}
      </Swatches>
      {errors?.length ? (
        <ErrorText id={errorId} role="alert">
          {errors.map(translate).join(' ')}
        </ErrorText>
      ) : null}
    </Fieldset>
  );
}

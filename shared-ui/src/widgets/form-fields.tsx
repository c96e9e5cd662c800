import type { InputHTMLAttributes, SelectHTMLAttributes } from 'react';
import styled, { css } from 'styled-components';
import { FieldShell, type FieldTextProps } from './field-shell';

const controlStyles = css`
  width: 100%;
  min-height: 40px;
  padding: ${({ theme }) => `${theme.space.sm} ${theme.space.md}`};
  border: 1px solid ${({ theme }) => theme.colors.borderStrong};
  border-radius: ${({ theme }) => theme.radii.sm};
  background: ${({ theme }) => theme.colors.surface};
  color: ${({ theme }) => theme.colors.text};

  &[aria-invalid='true'] {
    border-color: ${({ theme }) => theme.colors.danger};
    border-width: 2px;
  }

  &:disabled,
  &[readonly] {
    background: ${({ theme }) => theme.colors.surfaceMuted};
  }
`;

const Input = styled.input`
  ${controlStyles}
`;

const Select = styled.select`
  ${controlStyles}
`;

const Checkbox = styled.input`
  width: 20px;
  height: 20px;
  margin: 0;
  accent-color: ${({ theme }) => theme.colors.primary};
`;

export type TextFieldProps = FieldTextProps &
  Omit<InputHTMLAttributes<HTMLInputElement>, 'children'>;

export function TextField({ label, help, error, id, ...input }: TextFieldProps) {
  return (
    <FieldShell id={id} label={label} help={help} error={error} required={input.required}>
      {(ids) => (
        <Input
          type="text"
          {...input}
          id={ids.id}
          aria-describedby={ids.describedBy}
          aria-invalid={ids.invalid || undefined}
        />
      )}
    </FieldShell>
  );
}

export interface SelectOption {
  value: string;
  label: string;
}

export type SelectFieldProps = FieldTextProps &
  Omit<SelectHTMLAttributes<HTMLSelectElement>, 'children'> & {
    options: readonly SelectOption[];
    /** A first, empty choice, e.g. "Select…". */
    placeholder?: string;
  };

export function SelectField({
  label,
  help,
  error,
  id,
  options,
  placeholder,
  ...select
}: SelectFieldProps) {
  return (
    <FieldShell id={id} label={label} help={help} error={error} required={select.required}>
      {(ids) => (
        <Select
          {...select}
          id={ids.id}
          aria-describedby={ids.describedBy}
          aria-invalid={ids.invalid || undefined}
        >
          {placeholder !== undefined && <option value="">{placeholder}</option>}
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </Select>
      )}
    </FieldShell>
  );
}

export type CheckboxFieldProps = FieldTextProps &
  Omit<InputHTMLAttributes<HTMLInputElement>, 'children' | 'type'>;

export function CheckboxField({ label, help, error, id, ...input }: CheckboxFieldProps) {
  return (
    <FieldShell id={id} label={label} help={help} error={error} required={input.required} inline>
      {(ids) => (
        <Checkbox
          {...input}
          type="checkbox"
          id={ids.id}
          aria-describedby={ids.describedBy}
          aria-invalid={ids.invalid || undefined}
        />
      )}
    </FieldShell>
  );
}

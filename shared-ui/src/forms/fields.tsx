// The portal's form fields on react-final-form: each is labelled, shows its errors under itself
// (tied with aria-describedby, flagged with aria-invalid) and validates at field level.
// Controls and labels come from shared-ui's main entry by package name, so they and their
// translations are the federated singleton's.
import { useId, type ReactNode } from 'react';
import { useField, type FieldMetaState } from 'react-final-form';
import styled from 'styled-components';
import { useTranslateErrorMessage, useTranslation } from '@portal/shared-ui';
import {
  CheckboxField as CheckboxControl,
  SelectField as SelectControl,
  TextField as TextControl,
  type CheckboxFieldProps as CheckboxControlProps,
  type SelectFieldProps as SelectControlProps,
  type TextFieldProps as TextControlProps,
} from '@portal/shared-ui/widgets';
import {
  atLeastOne,
  composeValidators,
  formatDisplayDate,
  parseDisplayDate,
  required as requiredRule,
  validDate,
  type TypedDate,
  type Validator,
} from './validators';

/**
 * What a field shows: its own check once left or after a submit was tried; the server's
 * messages (submit errors) until it is edited again.
 */
export function fieldErrors(meta: FieldMetaState<unknown>): string[] {
  const errors: string[] = [];
  if (meta.error && (meta.touched || meta.submitFailed))
    errors.push(...[meta.error].flat().map(String));
  if (meta.submitError && !meta.dirtySinceLastSubmit)
    errors.push(...[meta.submitError].flat().map(String));
  return errors;
}

interface FieldRules<V> {
  name: string;
  /** Field-level validation; `required` adds the required rule in front. */
  validate?: Validator<V>;
}

const withRequired = <V,>(isRequired: boolean | undefined, validate: Validator<V> | undefined) =>
  isRequired || validate
    ? composeValidators<V>(isRequired && (requiredRule as Validator<V>), validate)
    : undefined;

export type TextFieldProps = FieldRules<string> &
  Omit<TextControlProps, 'name' | 'value' | 'onChange' | 'onBlur' | 'onFocus' | 'error'>;

export function TextField({ name, validate, required, type, ...rest }: TextFieldProps) {
  const { input, meta } = useField<string>(name, {
    validate: withRequired(required, validate),
    type,
  });
  return (
    <TextControl
      {...rest}
      {...input}
      type={type ?? 'text'}
      required={required}
      value={input.value ?? ''}
      error={fieldErrors(meta)}
    />
  );
}

export type SelectFieldProps = FieldRules<string> &
  Omit<SelectControlProps, 'name' | 'value' | 'onChange' | 'onBlur' | 'onFocus' | 'error'>;

export function SelectField({ name, validate, required, ...rest }: SelectFieldProps) {
  const { input, meta } = useField<string>(name, { validate: withRequired(required, validate) });
  return (
    <SelectControl
      {...rest}
      {...input}
      required={required}
      value={input.value ?? ''}
      error={fieldErrors(meta)}
    />
  );
}

export type CheckboxFieldProps = FieldRules<boolean> &
  Omit<
    CheckboxControlProps,
    'name' | 'value' | 'checked' | 'onChange' | 'onBlur' | 'onFocus' | 'error'
  >;

export function CheckboxField({ name, validate, required, ...rest }: CheckboxFieldProps) {
  // A lone checkbox is on or off: `checked` carries the state, its `value` attribute is unused.
  const {
    input: { value: _value, ...input },
    meta,
  } = useField<boolean>(name, { validate: withRequired(required, validate), type: 'checkbox' });
  return <CheckboxControl {...rest} {...input} required={required} error={fieldErrors(meta)} />;
}

export type DateFieldProps = FieldRules<string> &
  Omit<TextControlProps, 'name' | 'value' | 'onChange' | 'onBlur' | 'onFocus' | 'error' | 'type'>;

/**
 * docs/requirements.md#limits-and-defaults dd/MM/yyyy. The form value is the API's yyyy-MM-dd once the text is a real date (what
 * was typed otherwise, which fails validation), so screens send it as it is.
 */
export function DateField({ name, validate, required, help, ...rest }: DateFieldProps) {
  const { t } = useTranslation();
  const { input, meta } = useField<string | TypedDate, HTMLElement, string>(name, {
    validate: composeValidators<string | TypedDate>(
      required && requiredRule,
      validDate,
      validate as Validator<string | TypedDate>,
    ),
    parse: parseDisplayDate,
    format: formatDisplayDate,
  });
  return (
    <TextControl
      {...rest}
      {...input}
      type="text"
      inputMode="numeric"
      autoComplete="off"
      placeholder={t('forms.date.placeholder')}
      required={required}
      help={help}
      // `format` has already turned the value into the text shown.
      value={input.value as unknown as string}
      error={fieldErrors(meta)}
    />
  );
}

const Fieldset = styled.fieldset`
  border: 0;
  padding: 0;
  margin: ${({ theme }) => `0 0 ${theme.space.md}`};
  min-width: 0;

  legend {
    padding: 0;
    margin-bottom: ${({ theme }) => theme.space.xs};
    font-weight: ${({ theme }) => theme.fontWeights.medium};
  }
`;

const Options = styled.div`
  display: flex;
  flex-direction: column;
  gap: ${({ theme }) => theme.space.xs};

  label {
    display: flex;
    align-items: center;
    gap: ${({ theme }) => theme.space.sm};
  }

  input {
    width: 20px;
    height: 20px;
    margin: 0;
    accent-color: ${({ theme }) => theme.colors.primary};
  }
`;

const GroupError = styled.div`
  margin-top: ${({ theme }) => theme.space.xs};
  font-size: ${({ theme }) => theme.fontSizes.sm};
  color: ${({ theme }) => theme.colors.errorText};
  font-weight: ${({ theme }) => theme.fontWeights.medium};

  p {
    margin: 0;
  }
`;

export interface CheckboxGroupOption<V extends string | number> {
  value: V;
  label: ReactNode;
}

export interface CheckboxGroupFieldProps<V extends string | number> extends FieldRules<V[]> {
  legend: ReactNode;
  options: readonly CheckboxGroupOption<V>[];
  /** Refuses an empty choice ("at least one"). */
  required?: boolean;
  help?: ReactNode;
}

/** A list of ids chosen with checkboxes, e.g. a licence's entitlements. */
export function CheckboxGroupField<V extends string | number>({
  name,
  legend,
  options,
  required,
  validate,
  help,
}: CheckboxGroupFieldProps<V>) {
  const id = useId();
  const translate = useTranslateErrorMessage();
  const { input, meta } = useField<V[]>(name, {
    validate: composeValidators<V[]>(required && (atLeastOne as Validator<V[]>), validate),
    // An untouched group is an empty list, never undefined.
    format: (value) => value ?? [],
  });
  const chosen = input.value ?? [];
  const errors = fieldErrors(meta);
  const helpId = `${id}-help`;
  const errorId = `${id}-error`;
  const describedBy =
    [help ? helpId : null, errors.length ? errorId : null].filter(Boolean).join(' ') || undefined;
  const toggle = (value: V, on: boolean) =>
    input.onChange(on ? [...chosen, value] : chosen.filter((v) => v !== value));
  return (
    <Fieldset
      aria-describedby={describedBy}
      aria-invalid={errors.length > 0 || undefined}
      onBlur={() => input.onBlur()}
    >
      <legend>
        {legend}
        {required && <span aria-hidden="true"> *</span>}
      </legend>
      {help && <div id={helpId}>{help}</div>}
      <Options>
        {options.map((option) => (
          <label key={option.value}>
            <input
              type="checkbox"
              name={name}
              value={String(option.value)}
              checked={chosen.includes(option.value)}
              onChange={(event) => toggle(option.value, event.target.checked)}
              aria-invalid={errors.length > 0 || undefined}
            />
            {option.label}
          </label>
        ))}
      </Options>
      {errors.length > 0 && (
        <GroupError id={errorId}>
          {errors.map((message, i) => (
            <p key={i}>{translate(message)}</p>
          ))}
        </GroupError>
      )}
    </Fieldset>
  );
}

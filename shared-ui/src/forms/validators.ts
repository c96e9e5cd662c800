// Field-level validators for final-form: each returns the message (the API's wording, so the
// field translates both through 'errorMessage.*') or undefined.
import dayjs from 'dayjs';
import customParseFormat from 'dayjs/plugin/customParseFormat';

dayjs.extend(customParseFormat);

export type Validator<V = unknown> = (value: V, allValues?: object) => string | undefined;

export const REQUIRED = 'This field is required.';
export const AT_LEAST_ONE = 'Select at least one option.';
export const INVALID_DATE = 'Enter a valid date in the format dd/MM/yyyy.';
export const INTEGER_REQUIRED = 'A valid integer is required.';
export const minValueMessage = (min: number) => `Ensure this value is greater than or equal to ${min}.`;
export const maxLengthMessage = (max: number) => `Ensure this field has no more than ${max} characters.`;

/** docs/requirements.md#limits-and-defaults: dates are shown and typed as dd/MM/yyyy; the API speaks yyyy-MM-dd. */
export const DISPLAY_DATE_FORMAT = 'DD/MM/YYYY';
export const WIRE_DATE_FORMAT = 'YYYY-MM-DD';

const isBlank = (value: unknown) =>
  value === undefined ||
  value === null ||
  value === false ||
  (typeof value === 'string' && value.trim() === '') ||
  (Array.isArray(value) && value.length === 0);

export const required: Validator = (value) => (isBlank(value) ? REQUIRED : undefined);

/** For checkbox groups: an empty list is refused. */
export const atLeastOne: Validator = (value) => (Array.isArray(value) && value.length > 0 ? undefined : AT_LEAST_ONE);

/** A whole number not below `min`; empty passes (pair with `required`). */
export const minInteger =
  (min: number): Validator =>
  (value) => {
    if (isBlank(value)) return undefined;
    const text = String(value).trim();
    if (!/^-?\d+$/.test(text)) return INTEGER_REQUIRED;
    return Number(text) < min ? minValueMessage(min) : undefined;
  };

export const maxLength =
  (max: number): Validator =>
  (value) =>
    typeof value === 'string' && value.length > max ? maxLengthMessage(max) : undefined;

/** A date field's value is a yyyy-MM-dd day once what was typed is a real dd/MM/yyyy date. */
export const validDate: Validator = (value) =>
  isBlank(value) || (typeof value === 'string' && dayjs(value, WIRE_DATE_FORMAT, true).isValid())
    ? undefined
    : INVALID_DATE;

/** The first message of several validators. */
export const composeValidators =
  <V>(...validators: (Validator<V> | undefined | false)[]): Validator<V> =>
  (value, allValues) => {
    for (const validate of validators) {
      const message = validate ? validate(value, allValues) : undefined;
      if (message) return message;
    }
    return undefined;
  };

/**
 * Text typed into a date field that is not a dd/MM/yyyy date yet. Kept apart from strings, so
 * that typing "2026-03-05" is not taken for the wire day it looks like.
 */
export interface TypedDate {
  typed: string;
}

/** What a date field stores for typed text: the wire day when it is a real date, else the text. */
export function parseDisplayDate(text: string): string | TypedDate {
  if (text === '') return '';
  const day = dayjs(text.trim(), DISPLAY_DATE_FORMAT, true);
  return day.isValid() ? day.format(WIRE_DATE_FORMAT) : { typed: text };
}

/** What a date field shows for its value: dd/MM/yyyy for a wire day, else the text as typed. */
export function formatDisplayDate(value: unknown): string {
  if (typeof value === 'object' && value !== null && 'typed' in value) return String((value as TypedDate).typed);
  if (typeof value !== 'string') return '';
  const day = dayjs(value, WIRE_DATE_FORMAT, true);
  return day.isValid() ? day.format(DISPLAY_DATE_FORMAT) : value;
}

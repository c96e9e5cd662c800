import type { TSchema } from '@sinclair/typebox';
import { Value, ValueErrorType, type ValueError } from '@sinclair/typebox/value';
import { NON_FIELD_ERRORS, type FieldErrors } from '@portal/contract';

/** Caps what a huge invalid document can make us build and send. */
const MAX_ERRORS = 50;

/**
 * Field errors for a value parsed by hand (e.g. a JSON form field of a multipart request), keyed
 * the way `toFieldErrors` keys body errors: nested fields joined with dots (`evidenceData.tube.kV`).
 */
export function typeboxFieldErrors(schema: TSchema, value: unknown): FieldErrors {
  // No prototype: a field named `__proto__` or `constructor` (the JSON is the client's) must be a
  // key like any other, not Object.prototype's.
  const result: FieldErrors = Object.create(null) as FieldErrors;
  let seen = 0;
  for (const error of Value.Errors(schema, value)) {
    if (seen++ >= MAX_ERRORS) break;
    const field =
      error.path
        .split('/')
        .slice(1)
        .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
        .join('.') || NON_FIELD_ERRORS;
    const messages = (result[field] ??= []);
    // A missing field also fails its type check; saying it is required is enough.
    if (messages.includes(REQUIRED)) continue;
    const message = messageOf(error);
    if (message === REQUIRED) messages.length = 0;
    if (!messages.includes(message)) messages.push(message);
  }
  return result;
}

const REQUIRED = 'This field is required.';

function messageOf(error: ValueError): string {
  switch (error.type) {
    case ValueErrorType.ObjectRequiredProperty:
      return REQUIRED;
    case ValueErrorType.ObjectAdditionalProperties:
      return 'Unknown field.';
    case ValueErrorType.Union: {
      // A union of literals is a choice; name the choices instead of "Expected union value".
      const options = (error.schema as { anyOf?: Array<{ const?: unknown }> }).anyOf ?? [];
      if (options.length > 0 && options.every((o) => o.const !== undefined)) {
        return `must be one of: ${options.map((o) => JSON.stringify(o.const)).join(', ')}`;
      }
      return error.message;
    }
    default:
      return error.message;
  }
}

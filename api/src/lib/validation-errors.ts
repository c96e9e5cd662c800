import type { ErrorObject } from 'ajv';
import {
  FIELD_MESSAGE_TEMPLATES,
  NON_FIELD_ERRORS,
  formatFieldMessage,
  type FieldErrors,
} from '@portal/contract';

/** Caps what a huge invalid body can make us build and send. */
const MAX_ERRORS = 50;

function fieldOf(error: ErrorObject): string {
  const segments = error.instancePath
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'required' && typeof params.missingProperty === 'string') {
    segments.push(params.missingProperty);
  }
  if (error.keyword === 'additionalProperties' && typeof params.additionalProperty === 'string') {
    segments.push(params.additionalProperty);
  }
  // DRF names nested fields with dots, e.g. `entitlements.0`.
  return segments.length > 0 ? segments.join('.') : NON_FIELD_ERRORS;
}

/**
 * A schema's own words for a pattern it sets (`x-patternMessage`, e.g. "Enter the version as
 * major.minor.patch"): ajv's "must match pattern "^(0|[1-9]…" means nothing to the person typing.
 * ajv hands the schema along with `verbose` (errors.ts).
 */
function patternMessageOf(error: ErrorObject): string | null {
  if (error.keyword !== 'pattern') return null;
  const message = (error.parentSchema as Record<string, unknown> | undefined)?.[
    'x-patternMessage'
  ];
  return typeof message === 'string' ? message : null;
}

function messageOf(error: ErrorObject): string {
  if (error.keyword === 'required') return 'This field is required.';
  return patternMessageOf(error) ?? error.message ?? 'Invalid value.';
}

/**
 * Turns ajv errors into DRF-style `{field: ["message"]}`, one key per invalid field: ajv runs with
 * `allErrors`, so a body with several bad fields names them all in one answer. A union (`anyOf`) reports one error per
 * branch; those are merged into one readable message per field ("must be integer or null").
 */
export function toFieldErrors(errors: readonly ErrorObject[]): FieldErrors {
  const byField = new Map<string, ErrorObject[]>();
  for (const error of errors.slice(0, MAX_ERRORS)) {
    const field = fieldOf(error);
    byField.set(field, [...(byField.get(field) ?? []), error]);
  }
  const result: FieldErrors = {};
  for (const [field, list] of byField) {
    const branches = list.filter((e) => e.keyword !== 'anyOf');
    const types = branches.filter((e) => e.keyword === 'type').map((e) => String(e.params.type));
    const consts = branches
      .filter((e) => e.keyword === 'const')
      .map((e) => JSON.stringify(e.params.allowedValue));
    const others = branches.filter((e) => e.keyword !== 'type' && e.keyword !== 'const');
    const messages: string[] = [];
    if (types.length > 0) messages.push(`must be ${[...new Set(types)].join(' or ')}`);
    if (consts.length > 0)
      messages.push(formatFieldMessage(FIELD_MESSAGE_TEMPLATES.oneOf, { values: consts.join(', ') }));
    for (const e of others) messages.push(messageOf(e));
    if (messages.length === 0) messages.push('Invalid value.');
    result[field] = [...new Set(messages)];
  }
  return result;
}

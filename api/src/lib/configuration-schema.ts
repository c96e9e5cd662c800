import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { FIELD_MESSAGE_TEMPLATES, formatFieldMessage } from '@portal/contract';
import { MAX_FILE_MESSAGES } from './configuration-files';

/** Deeper than any real schema; ajv compiles recursively, so this bounds its stack. */
const MAX_SCHEMA_DEPTH = 64;
export const SCHEMA_TOO_DEEP = `The schema is nested more than ${MAX_SCHEMA_DEPTH} levels deep.`;

function depthOf(value: unknown): number {
  let deepest = 0;
  // Iterative: a hostile document must not exhaust the call stack here either.
  const stack: Array<{ node: unknown; depth: number }> = [{ node: value, depth: 1 }];
  while (stack.length > 0) {
    const { node, depth } = stack.pop()!;
    if (typeof node !== 'object' || node === null) continue;
    deepest = Math.max(deepest, depth);
    if (deepest > MAX_SCHEMA_DEPTH) return deepest;
    for (const child of Object.values(node)) stack.push({ node: child, depth: depth + 1 });
  }
  return deepest;
}

/**
 * What is wrong with `schema` as a product's configuration schema, as the configuration save
 * will use it (configuration-files.ts: ajv with formats, not strict): first against the JSON
 * Schema meta-schema (messages name the JSON path), then whether ajv can compile it (e.g. a `$ref`
 * to nowhere).
 */
export function configurationSchemaErrors(schema: Record<string, unknown>): string[] {
  if (depthOf(schema) > MAX_SCHEMA_DEPTH) return [SCHEMA_TOO_DEEP];
  const ajv = new Ajv({ allErrors: true, strict: false });
  addFormats(ajv);
  if (!ajv.validateSchema(schema)) {
    return (ajv.errors ?? []).slice(0, MAX_FILE_MESSAGES).map((e) =>
      formatFieldMessage(FIELD_MESSAGE_TEMPLATES.atJsonPath, {
        path: e.instancePath || '/',
        detail: e.message ?? 'is invalid',
      }),
    );
  }
  try {
    ajv.compile(schema);
    return [];
  } catch (error) {
    return [
      formatFieldMessage(FIELD_MESSAGE_TEMPLATES.schemaUnusable, {
        reason: (error as Error).message,
      }),
    ];
  }
}

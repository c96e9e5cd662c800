import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { FIELD_MESSAGE_TEMPLATES, formatFieldMessage } from '@portal/contract';
import { decodeUtf8 } from './csv/users-csv';

/**
 * What a product configuration's files must hold (docs/requirements.md#file-rules, issue #9): the config file is JSON
 * matching its product's JSON Schema, the translation file JSON whose values are all strings.
 * Messages name the JSON path (JSON Pointer, `/exposure/kv`), so an administrator can find the
 * place in the file.
 */

/** Caps the messages one bad file produces; the first ones are enough to find the problem. */
export const MAX_FILE_MESSAGES = 20;

export const NOT_JSON = 'The file is not valid JSON.';
export const NOT_UTF8_TEXT = 'The file must be UTF-8 text.';
export const NOT_AN_OBJECT = 'The file must hold a JSON object.';
export const TRANSLATION_VALUE = 'must be a string or an object of strings';

const atPath = (path: string, detail: string) =>
  formatFieldMessage(FIELD_MESSAGE_TEMPLATES.atJsonPath, { path, detail });

export type Parsed = { ok: true; value: unknown } | { ok: false; message: string };

/** UTF-8 (with or without BOM) JSON text; the parser's own message says where it broke. */
export function parseJsonFile(data: Buffer): Parsed {
  const text = decodeUtf8(data);
  if (text === null) return { ok: false, message: NOT_UTF8_TEXT };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return {
      ok: false,
      message: formatFieldMessage(FIELD_MESSAGE_TEMPLATES.notJson, {
        reason: (error as Error).message,
      }),
    };
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** RFC 6901: `~` and `/` inside a key are escaped, so every path points at one place. */
const pointer = (path: readonly string[]) =>
  path.length === 0
    ? '/'
    : path.map((key) => `/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');

/**
 * A translation file: an object whose values are strings or objects of the same kind (e.g.
 * `{"de": {"title": "Knie"}}`). Arrays, numbers, booleans and null are refused where they are.
 */
export function translationErrors(value: unknown): string[] {
  if (!isObject(value)) return [NOT_AN_OBJECT];
  const errors: string[] = [];
  // Depth-first with an explicit stack: a deeply nested file cannot exhaust the call stack.
  const stack: Array<{ node: Record<string, unknown>; path: string[] }> = [
    { node: value, path: [] },
  ];
  while (stack.length > 0 && errors.length < MAX_FILE_MESSAGES) {
    const { node, path } = stack.pop()!;
    for (const [key, child] of Object.entries(node)) {
      if (typeof child === 'string') continue;
      if (isObject(child)) stack.push({ node: child, path: [...path, key] });
      else errors.push(atPath(pointer([...path, key]), TRANSLATION_VALUE));
      if (errors.length >= MAX_FILE_MESSAGES) break;
    }
  }
  return errors;
}

/**
 * The config file against its product's JSON Schema. A fresh ajv per call: ajv caches compiled
 * schemas by object, and each save reads the schema anew from the database, so a shared instance
 * would keep one compiled copy per save. Saving a configuration is rare; compiling is cheap.
 */
export function schemaErrors(schema: Record<string, unknown>, value: unknown): string[] {
  const ajv = new Ajv({ allErrors: true, strict: false });
  addFormats(ajv);
  const validate = ajv.compile(schema);
  if (validate(value)) return [];
  return (validate.errors ?? [])
    .slice(0, MAX_FILE_MESSAGES)
    .map((e) => atPath(e.instancePath || '/', e.message ?? 'is invalid'));
}

/** A config file must at least be a JSON object before any product schema is asked. */
export function configFileErrors(value: unknown): string[] {
  return isObject(value) ? [] : [NOT_AN_OBJECT];
}

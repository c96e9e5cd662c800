/**
 * Field messages that carry values (a version, a JSON path, a size), as templates with `{name}`
 * placeholders. The API writes its 400 answers' `{field: ["message"]}` with `formatFieldMessage`,
 * so the shape stays plain English text for every existing client; a front end that wants another
 * language finds the template and its values again with `matchFieldMessage` and translates the
 * template (key `errorMessage.<template>`), putting the values back in. A message without values
 * needs no template: it is its own key.
 *
 * Values themselves may be messages (`detail`, a schema error after its JSON path): the client
 * translates them the same way before putting them in.
 */
export const FIELD_MESSAGE_TEMPLATES = {
  /** Simulation downloads: the version is unique per product and operating system. */
  versionTaken: 'Version {version} for {os} already exists for this product.',
  /** Upload size limit; `{size}` e.g. `10MB`, `2GB`. */
  fileTooLarge: 'File is too large. Max file size is {size}',
  fileExtensionInvalid: 'File extension is not valid. Allowed extensions are: {allowed}.',
  fileTypeInvalid: 'Invalid file type. Allowed types are: {allowed}.',
  /** `{reason}`: the JSON parser's own words with the position where it broke. */
  notJson: 'The file is not valid JSON. {reason}',
  /** A configuration or translation file's problem at a JSON Pointer (`/exposure/kv`). */
  atJsonPath: '{path}: {detail}',
  /** A product's configuration schema that meets the meta-schema but cannot be compiled. */
  schemaUnusable: 'The schema cannot be used: {reason}',
  /** Request bodies: a union of types or of constants (api/src/lib/validation-errors.ts). */
  oneOf: 'must be one of: {values}',
  // ajv's own English messages (ajv 8), for configuration files checked against a product's
  // JSON Schema and for request bodies; those without values are plain keys.
  comparison: 'must be {comparison} {limit}',
  type: 'must be {type}',
  multipleOf: 'must be multiple of {limit}',
  fewerCharacters: 'must NOT have fewer than {limit} characters',
  moreCharacters: 'must NOT have more than {limit} characters',
  fewerItems: 'must NOT have fewer than {limit} items',
  moreItems: 'must NOT have more than {limit} items',
  fewerProperties: 'must NOT have fewer than {limit} properties',
  moreProperties: 'must NOT have more than {limit} properties',
  duplicateItems: 'must NOT have duplicate items (items ## {j} and {i} are identical)',
  requiredProperty: "must have required property '{property}'",
  pattern: 'must match pattern "{pattern}"',
  format: 'must match format "{format}"',
  containsAtLeast: 'must contain at least {min} valid item(s)',
  ifThen: 'must match "{clause}" schema',
} as const;

export type FieldMessageTemplate =
  (typeof FIELD_MESSAGE_TEMPLATES)[keyof typeof FIELD_MESSAGE_TEMPLATES];

/** Names of the template values that are messages themselves, translated before insertion. */
export const NESTED_MESSAGE_PARAMS: readonly string[] = ['detail'];

const PLACEHOLDER = /\{(\w+)\}/g;

export function formatFieldMessage(
  template: FieldMessageTemplate,
  params: Readonly<Record<string, string | number>>,
): string {
  return template.replace(PLACEHOLDER, (whole, name: string) =>
    name in params ? String(params[name]) : whole,
  );
}

/** What some values look like, so that e.g. "must be integer or null" is no comparison. */
const PARAM_PATTERNS: Readonly<Record<string, string>> = {
  // A JSON Pointer starts at the root `/`; it runs to the first `: `.
  path: '/[^\\n]*?',
  comparison: '[<>]=?',
  limit: '-?[0-9][0-9.e+-]*',
  i: '[0-9]+',
  j: '[0-9]+',
  min: '[0-9]+',
};

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

interface CompiledTemplate {
  template: FieldMessageTemplate;
  names: string[];
  pattern: RegExp;
  /** Characters outside placeholders: the more, the more specific the template. */
  literal: number;
}

const compiled: CompiledTemplate[] = Object.values(FIELD_MESSAGE_TEMPLATES)
  .map((template) => {
    const names: string[] = [];
    let source = '';
    let last = 0;
    for (const match of template.matchAll(PLACEHOLDER)) {
      source += escapeRegExp(template.slice(last, match.index));
      source += `(${PARAM_PATTERNS[match[1]!] ?? '[^\\n]+?'})`;
      names.push(match[1]!);
      last = match.index + match[0].length;
    }
    source += escapeRegExp(template.slice(last));
    return {
      template,
      names,
      pattern: new RegExp(`^${source}$`),
      literal: template.replace(PLACEHOLDER, '').length,
    };
  })
  // "must be >= 0" is a comparison, not a type: the template with more fixed text wins.
  .sort((a, b) => b.literal - a.literal);

/** The template a message was written with and its values, or null for any other message. */
export function matchFieldMessage(
  message: string,
): { template: FieldMessageTemplate; params: Record<string, string> } | null {
  for (const { template, names, pattern } of compiled) {
    const match = pattern.exec(message);
    if (!match) continue;
    const params: Record<string, string> = {};
    names.forEach((name, i) => {
      params[name] = match[i + 1]!;
    });
    return { template, params };
  }
  return null;
}

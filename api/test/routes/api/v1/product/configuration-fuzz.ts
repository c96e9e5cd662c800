import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import type { TestApp } from '../../../../helper';
import { rawMultipart } from '../simulator/session-fixtures';
import {
  createConfiguration,
  practiceViewCategoryOf,
  productIdOf,
  RADIOGRAPHY_CONFIG,
  TRANSLATION,
  uploadedFile,
  type ConfigurationFileKind,
} from './configuration-fixtures';
import {
  adminActor,
  anyJson,
  hostileText,
  strayQuery,
  writeHeaders,
} from '../../../../security/fuzz-arbitraries';
import { fuzzer, type Fuzzer } from '../../../../security/suite-shapes';

/**
 * The product configuration write routes for the fuzz suite (api/test/security): shapes are in
 * security/suite-shapes.ts. Mostly as the global administrator, who gets past the permission into
 * the route's own checks; sometimes as an organisation administrator, who must be refused.
 */
const actor = adminActor;
const hostile = hostileText([
  '',
  ' ',
  '\u0000',
  "'; drop table files; --",
  '../../x',
  'x'.repeat(300),
]);
const json = anyJson(hostile);
const query = strayQuery(hostile);
const headersOf = writeHeaders;

/** What a file of the form may hold: valid, nearly valid, or anything. */
const configContent = fc.oneof(
  { weight: 3, arbitrary: fc.constant<unknown>(RADIOGRAPHY_CONFIG) },
  fc.record({
    examination: hostile,
    bodyArea: hostile,
    exposure: fc.record({ kv: json, mAs: json }),
  }),
  json,
);
const translationContent = fc.oneof(
  { weight: 3, arbitrary: fc.constant<unknown>(TRANSLATION) },
  fc.dictionary(hostile, fc.oneof(hostile, fc.dictionary(hostile, json, { maxKeys: 2 })), {
    maxKeys: 3,
  }),
  json,
);

const uploadForm = (content: fc.Arbitrary<unknown>) =>
  fc
    .record({
      name: fc.oneof({ weight: 4, arbitrary: fc.constant('file') }, hostile),
      fileName: fc.oneof(
        { weight: 4, arbitrary: fc.constant('config.json') },
        fc.constantFrom('config.csv', 'CON.json', 'a<b>.json', 'config.json.', ''),
        hostile,
      ),
      type: fc.oneof(
        { weight: 4, arbitrary: fc.constant('application/json') },
        fc.constantFrom('text/html', 'image/png', ''),
        hostile,
      ),
      data: fc.oneof(
        { weight: 4, arbitrary: content.map((c) => Buffer.from(JSON.stringify(c) ?? 'null')) },
        fc.uint8Array({ maxLength: 64 }).map((a) => Buffer.from(a)),
        fc.constantFrom(Buffer.alloc(0), Buffer.from('{"a":'), Buffer.from([0xff, 0xfe, 0x7b])),
      ),
    })
    .map((part) => rawMultipart([part]));

const uploadRoute = (kind: ConfigurationFileKind, content: fc.Arbitrary<unknown>) =>
  fuzzer({
    input: fc.record({ as: actor, query, form: uploadForm(content) }),
    async request(_ctx, input) {
      return {
        method: 'POST',
        url: `/api/v1/file/upload/${kind}${input.query}`,
        headers: { ...(await headersOf(input.as)), 'content-type': input.form.contentType },
        body: input.form.payload,
      };
    },
  });

/** `@upload`: a fresh upload of the content; `@saved`: a file another configuration holds. */
const fileRef = fc.oneof(
  { weight: 4, arbitrary: fc.constant('@upload') },
  fc.constant('@saved'),
  fc.constant('@otherKind'),
  fc.uuid().map(String),
  hostile,
);
const productRef = fc.oneof(
  { weight: 4, arbitrary: fc.constant('@radiography') },
  fc.constantFrom('@birthing', '0', '-1', '999999', '1e3', 'abc'),
);

/** The values a save accepts, for the runs that keep all of them, or all but one. */
const VALID = {
  product: '@radiography',
  configurationName: '@fresh',
  practiceViewCategory: '@own',
  configFile: '@upload',
  configContent: RADIOGRAPHY_CONFIG as unknown,
  translationFile: '@upload',
  translationContent: TRANSLATION as unknown,
  rawBody: null,
} as const;
type ValidKey = keyof typeof VALID;

const rawInput = fc.record({
  keep: fc.oneof(
    { weight: 3, arbitrary: fc.constant<'all' | 'none'>('all') },
    { weight: 3, arbitrary: fc.constantFrom(...(Object.keys(VALID) as ValidKey[])) },
    fc.constant<'all' | 'none'>('none'),
  ),
  as: actor,
  product: productRef,
  query,
  configurationName: fc.oneof(
    { weight: 3, arbitrary: fc.constant('@fresh') },
    fc.constantFrom('radiography.lower-limb.knee', 'RADIOGRAPHY.LOWER-LIMB.KNEE'),
    hostile,
    json,
  ),
  practiceViewCategory: fc.oneof(
    { weight: 3, arbitrary: fc.constant('@own') },
    fc.constant('@otherProduct'),
    fc.integer({ min: -2, max: 100_000 }),
    json,
  ),
  isSelfAssessment: fc.oneof({ weight: 4, arbitrary: fc.constantFrom(null, true, false) }, json),
  configFile: fileRef,
  configContent,
  translationFile: fc.option(fileRef),
  translationContent,
  extra: fc.oneof(
    { weight: 4, arbitrary: fc.constant(null) },
    fc.dictionary(hostile, json, { maxKeys: 2 }),
  ),
  rawBody: fc.oneof(
    { weight: 8, arbitrary: fc.constant(null) },
    hostile,
    fc.constant('{"configurationName":'),
  ),
});
type RawInput = typeof rawInput extends fc.Arbitrary<infer T> ? T : never;

/**
 * `keep`: `all` valid values, all but the named one (which stays arbitrary), or `none` (every
 * field arbitrary), so that runs reach the route's own checks and its writes, not only the schema.
 */
const bodyInput = rawInput.map((input) => {
  if (input.keep === 'none') return input;
  const { [input.keep as ValidKey]: _arbitrary, ...valid } = VALID;
  return { ...input, ...(input.keep === 'all' ? VALID : valid) };
});
type BodyInput = RawInput;

async function build(
  t: TestApp,
  input: BodyInput,
): Promise<{ product: string; body: string; contentType: string }> {
  const product =
    input.product === '@radiography'
      ? String(await productIdOf(t.db, 'radiography'))
      : input.product === '@birthing'
        ? String(await productIdOf(t.db, 'birthing'))
        : input.product;
  if (input.rawBody !== null) {
    return { product, body: input.rawBody, contentType: 'application/json' };
  }
  const file = async (ref: string, kind: ConfigurationFileKind, content: unknown) => {
    if (ref === '@upload') {
      // Content the upload refuses leaves a random id: the save must then say the file is missing.
      return uploadedFile(t, kind, content).catch(() => randomUUID());
    }
    if (ref === '@saved') {
      const res = await t.db.query<{ id: string }>(
        `select ${kind === 'sim-config' ? 'config_file_id' : 'translation_file_id'}::text as id
           from product_configurations where translation_file_id is not null limit 1`,
      );
      return res.rows[0]!.id;
    }
    if (ref === '@otherKind') {
      return uploadedFile(
        t,
        kind === 'sim-config' ? 'sim-config-translation' : 'sim-config',
        kind === 'sim-config' ? TRANSLATION : RADIOGRAPHY_CONFIG,
      );
    }
    return ref;
  };
  const body: Record<string, unknown> = {
    configurationName:
      input.configurationName === '@fresh' ? `Fuzz ${randomUUID()}` : input.configurationName,
    practiceViewCategory:
      input.practiceViewCategory === '@own'
        ? await practiceViewCategoryOf(t.db, 'radiography')
        : input.practiceViewCategory === '@otherProduct'
          ? await practiceViewCategoryOf(t.db, 'birthing')
          : input.practiceViewCategory,
    configFile: await file(input.configFile, 'sim-config', input.configContent),
    ...(input.extra ?? {}),
  };
  if (input.isSelfAssessment !== null) body.isSelfAssessment = input.isSelfAssessment;
  if (input.translationFile !== null) {
    body.translationFile = await file(
      input.translationFile,
      'sim-config-translation',
      input.translationContent,
    );
  }
  return { product, body: JSON.stringify(body), contentType: 'application/json' };
}

/** The configuration the PUT runs edit, made by the first run. */
let target: Promise<number> | null = null;

export const productConfigurationFuzzers: Record<string, Fuzzer> = {
  'POST /api/v1/file/upload/sim-config': uploadRoute('sim-config', configContent),
  'POST /api/v1/file/upload/sim-config-translation': uploadRoute(
    'sim-config-translation',
    translationContent,
  ),
  'POST /api/v1/product/:id/configuration': fuzzer({
    input: bodyInput,
    async request(ctx, input) {
      const { product, body, contentType } = await build(ctx.t, input);
      return {
        method: 'POST',
        url: `/api/v1/product/${product}/configuration${input.query}`,
        headers: { ...(await headersOf(input.as)), 'content-type': contentType },
        body,
      };
    },
  }),
  'PUT /api/v1/product/:id/configuration/:configurationId': fuzzer({
    input: fc.record({
      base: bodyInput,
      configuration: fc.oneof(
        { weight: 4, arbitrary: fc.constant('@mine') },
        fc.constantFrom('0', '999999', '-1', 'x'),
      ),
    }),
    async request(ctx, input) {
      // Made (and awaited) before anything else, so it never writes while a run is measured.
      target ??= createConfiguration(ctx.t, await productIdOf(ctx.t.db, 'radiography')).then(
        (c) => c.id,
      );
      const mine = String(await target);
      const configuration = input.configuration === '@mine' ? mine : input.configuration;
      const { product, body, contentType } = await build(ctx.t, input.base);
      return {
        method: 'PUT',
        url: `/api/v1/product/${product}/configuration/${configuration}${input.base.query}`,
        headers: { ...(await headersOf(input.base.as)), 'content-type': contentType },
        body,
      };
    },
  }),
};

import fc from 'fast-check';
import type { TestApp } from '../../../../helper';
import { rawMultipart } from '../simulator/session-fixtures';
import {
  DMG_BYTES,
  EXE_BYTES,
  createdDownload,
  freshVersion,
  productId,
  uploadedInstaller,
  ZIP_BYTES,
} from './simulation-download-fixtures';
import {
  adminActor,
  anyJson,
  hostileText,
  strayQuery,
  writeHeaders,
} from '../../../../security/fuzz-arbitraries';
import { fuzzer, type Fuzzer } from '../../../../security/suite-shapes';

/**
 * The simulation-download writes and the installer upload for the fuzz suite (api/test/security):
 * shapes are in security/suite-shapes.ts. Mostly as the global administrator, who gets past the
 * permission into the route's own checks; sometimes as an organisation administrator, who holds the
 * user permissions and must still be refused.
 */
const actor = adminActor;
const hostile = hostileText([
  '',
  ' ',
  '\u0000',
  "'; drop table files; --",
  '../../x',
  'x'.repeat(3000),
]);
const json = anyJson(hostile);
const query = strayQuery(hostile);
const headersOf = writeHeaders;

const version = fc.oneof(
  { weight: 4, arbitrary: fc.constant('@fresh') },
  fc.constantFrom('2.4.1', '3.0', '03.0.0', '1.2.3.4', '99999.0.0', '0.0.0'),
  fc.tuple(fc.nat(12000), fc.nat(12000), fc.nat(12000)).map(([a, b, c]) => `${a}.${b}.${c}`),
  hostile,
  json,
);
const fileUrl = fc.oneof(
  { weight: 4, arbitrary: fc.constant('https://downloads.example.test/setup.exe') },
  fc.constantFrom(
    'http://downloads.example.test/setup.exe',
    'javascript:alert(1)',
    'data:text/html,x',
    'https://user:pw@example.test/x',
    'https://',
  ),
  fc.webUrl(),
  hostile,
  json,
);
/** `@upload`: a fresh installer of the administrator's; `@saved`: one a Radiography version holds. */
const fileRef = fc.oneof(
  { weight: 3, arbitrary: fc.constant('@upload') },
  fc.constantFrom('@saved', '@none'),
  fc.uuid().map(String),
  hostile,
  json,
);
const productRef = fc.oneof(
  { weight: 4, arbitrary: fc.constant('@radiography') },
  fc.constantFrom('@birthing', '0', '-1', '2147483648', '1e3', 'abc'),
);

/** The values a save accepts, for the runs that keep all of them, or all but one. */
const VALID = {
  product: '@radiography',
  version: '@fresh',
  operatingSystem: 'windows',
  fileUrl: 'https://downloads.example.test/setup.exe',
  file: '@upload',
  isActive: undefined,
  extra: null,
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
  version,
  operatingSystem: fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom('windows', 'mac') },
    fc.constantFrom('linux', 'Windows', ''),
    json,
  ),
  fileUrl,
  file: fileRef,
  isActive: fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom<unknown>(undefined, true, false) },
    json,
  ),
  extra: fc.oneof(
    { weight: 4, arbitrary: fc.constant(null) },
    fc.dictionary(hostile, json, { maxKeys: 2 }),
  ),
  rawBody: fc.oneof(
    { weight: 8, arbitrary: fc.constant(null) },
    hostile,
    fc.constant('{"version":'),
  ),
});

/**
 * `keep`: `all` valid values, all but the named one (which stays arbitrary), or `none` (every
 * field arbitrary), so that runs reach the route's own checks and its writes, not only the schema.
 */
const bodyInput = rawInput.map((input) => {
  if (input.keep === 'none') return input;
  const { [input.keep as ValidKey]: _arbitrary, ...valid } = VALID;
  return { ...input, ...(input.keep === 'all' ? VALID : valid) } as typeof input;
});
type BodyInput = typeof rawInput extends fc.Arbitrary<infer T> ? T : never;

async function resolved(t: TestApp, input: BodyInput) {
  const product =
    input.product === '@radiography'
      ? String(await productId(t.db, 'radiography'))
      : input.product === '@birthing'
        ? String(await productId(t.db, 'birthing'))
        : input.product;
  if (input.rawBody !== null) return { product, body: input.rawBody };
  let fileId: unknown = input.file;
  if (input.file === '@upload') fileId = (await uploadedInstaller(t)).id;
  else if (input.file === '@none') fileId = null;
  else if (input.file === '@saved') {
    const res = await t.db.query<{ id: string }>(
      `select d.file_id::text as id from simulation_downloads d join products p on p.id = d.product_id
        where p.code = 'radiography' and d.file_id is not null order by d.id limit 1`,
    );
    fileId = res.rows[0]?.id ?? null;
  }
  const body: Record<string, unknown> = {
    ...(input.extra ?? {}),
    version: input.version === '@fresh' ? freshVersion() : input.version,
    operatingSystem: input.operatingSystem,
    fileUrl: input.fileUrl,
    fileId,
    ...(input.isActive === undefined ? {} : { isActive: input.isActive }),
  };
  return { product, body: JSON.stringify(body) };
}

const installerForm = fc
  .record({
    name: fc.oneof({ weight: 4, arbitrary: fc.constant('file') }, hostile),
    fileName: fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom('setup.zip', 'setup.exe', 'Radiography.dmg') },
      fc.constantFrom('setup.sh', 'CON.zip', 'a<b>.exe', 'setup.zip.', '', 'x.msi', 'x.pkg'),
      hostile,
    ),
    type: fc.oneof(
      { weight: 4, arbitrary: fc.constant('application/octet-stream') },
      fc.constantFrom('text/html', 'application/zip', ''),
      hostile,
    ),
    data: fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom(ZIP_BYTES, EXE_BYTES, DMG_BYTES) },
      fc.uint8Array({ maxLength: 128 }).map((a) => Buffer.from(a)),
      fc.constantFrom(Buffer.alloc(0), Buffer.from('MZ'), Buffer.from('PK')),
    ),
  })
  .map((part) => rawMultipart([part]));

export const simulationDownloadFuzzers: Record<string, Fuzzer> = {
  'POST /api/v1/file/upload/sim-installation-file': fuzzer({
    input: fc.record({ as: actor, query, form: installerForm }),
    async request(_ctx, input) {
      return {
        method: 'POST',
        url: `/api/v1/file/upload/sim-installation-file${input.query}`,
        headers: { ...(await headersOf(input.as)), 'content-type': input.form.contentType },
        body: input.form.payload,
      };
    },
  }),
  'POST /api/v1/product/:id/simulation-download': fuzzer({
    input: bodyInput,
    async request(ctx, input) {
      const { product, body } = await resolved(ctx.t, input);
      return {
        method: 'POST',
        url: `/api/v1/product/${product}/simulation-download${input.query}`,
        headers: { ...(await headersOf(input.as)), 'content-type': 'application/json' },
        body,
      };
    },
  }),
  'PUT /api/v1/product/:id/simulation-download/:downloadId': fuzzer({
    input: fc.record({
      body: bodyInput,
      download: fc.oneof(
        { weight: 4, arbitrary: fc.constant('@fresh') },
        fc.constantFrom('0', '-1', '2147483648', 'abc'),
        fc.nat(50).map(String),
      ),
    }),
    async request(ctx, input) {
      const { product, body } = await resolved(ctx.t, input.body);
      const download =
        input.download === '@fresh'
          ? String((await createdDownload(ctx.t, await productId(ctx.t.db, 'radiography'))).id)
          : input.download;
      return {
        method: 'PUT',
        url: `/api/v1/product/${product}/simulation-download/${download}${input.body.query}`,
        headers: { ...(await headersOf(input.body.as)), 'content-type': 'application/json' },
        body,
      };
    },
  }),
};

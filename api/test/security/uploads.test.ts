import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import type { Queryable } from '../../src/db/driver';
import { MAX_UPLOAD_BYTES } from '../../src/lib/upload-rules';
import { MAX_DATA_CHARS } from '../../src/routes/api/v1/simulator/evidence-form';
import {
  account,
  buildTestApp,
  signToken,
  TEST_STORAGE_DIR,
  xsrfHeaders,
  type TestApp,
} from '../helper';
import {
  createSession,
  dataPart,
  join as joinSession,
  lessonEvidence,
  PNG,
  rawMultipart,
  sessionHeader,
  xrayEvidence,
  type FormPart,
} from '../routes/api/v1/simulator/session-fixtures';
import { ZIP_BYTES } from '../routes/api/v1/product/simulation-download-fixtures';

/**
 * The attack suite for uploads (issue #7): every multipart route of the API refuses oversized
 * files, files that are not what their name says, dangerous names, extra files and oversized
 * fields, and a refusal leaves no row and no file behind.
 */

/** Every file under the storage folder, as paths relative to it. */
async function storedFiles(dir = TEST_STORAGE_DIR): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(dir.length))
    .sort();
}

/** Row counts of every table of the app's schema. */
async function rowCounts(db: Queryable): Promise<Record<string, number>> {
  const tables = await db.query<{ name: string }>(
    `select table_name as name from information_schema.tables
      where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name`,
  );
  const counts: Record<string, number> = {};
  for (const { name } of tables.rows) {
    const res = await db.query<{ n: number }>(`select count(*)::int as n from "${name}"`);
    counts[name] = res.rows[0]?.n ?? -1;
  }
  return counts;
}

type Multipart = ReturnType<typeof rawMultipart>;

interface UploadTarget {
  /** `METHOD url` as the route registry names it. */
  route: string;
  /** The form field that carries the file. */
  fileField: string;
  /** Extensions and type of a file the route accepts. */
  fileName: string;
  fileType: string;
  /** Extension of accepted files, for the name tests. */
  ext: string;
  /** A small file the route accepts. */
  sample: Buffer;
  /** A file the route accepts of exactly `size` bytes. */
  ofSize(size: number): Buffer;
  /** The answer to HTML sent under an accepted name and type. */
  typeError: string;
  /** The route reads the evidence `data` text field (the 64 KB field test). */
  dataField?: boolean;
  /** Everything but the file that a valid form needs. */
  otherParts(): FormPart[];
  /** Sends a multipart body (already encoded) to a fresh, ready target. */
  open(t: TestApp): Promise<(body: Multipart) => Promise<LightMyRequestResponse>>;
}

const USERS_CSV = Buffer.from('firstName,lastName,email\nUp,Load,upload@example.test\n');

/** One entry per upload route; the first test fails when a route is missing here. */
const TARGETS: readonly UploadTarget[] = [
  {
    route: 'POST /api/v1/simulator/session/evidence',
    fileField: 'image',
    fileName: 'knee-ap.png',
    fileType: 'image/png',
    ext: 'png',
    sample: PNG,
    ofSize: (size) => Buffer.concat([PNG, Buffer.alloc(size - PNG.length, 0)]),
    typeError: 'Invalid file type. Allowed types are: image/png, image/jpeg.',
    dataField: true,
    otherParts: () => [dataPart(xrayEvidence())],
    async open(t) {
      const session = await createSession(t);
      assert.equal((await joinSession(t, session.token)).statusCode, 200);
      return (body) =>
        t.app.inject({
          method: 'POST',
          url: '/api/v1/simulator/session/evidence',
          headers: { ...sessionHeader(session.token), 'content-type': body.contentType },
          payload: body.payload,
        });
    },
  },
  {
    route: 'POST /api/v1/file/upload/user',
    fileField: 'file',
    fileName: 'users.csv',
    fileType: 'text/csv',
    ext: 'csv',
    sample: USERS_CSV,
    // Blank lines are skipped, so any size is a valid users CSV.
    ofSize: (size) => Buffer.concat([USERS_CSV, Buffer.alloc(size - USERS_CSV.length, 0x0a)]),
    typeError: 'Invalid file type. Allowed types are: text/csv.',
    otherParts: () => [],
    async open(t) {
      const headers = {
        authorization: `Bearer ${await signToken(account('org admin', 'Demo Hospital').sub)}`,
        ...xsrfHeaders(),
      };
      return (body) =>
        t.app.inject({
          method: 'POST',
          url: '/api/v1/file/upload/user',
          headers: { ...headers, 'content-type': body.contentType },
          payload: body.payload,
        });
    },
  },
  ...(['sim-config', 'sim-config-translation'] as const).map((kind): UploadTarget => {
    // JSON allows trailing blanks, so a file of any size can be a valid one.
    const sample = Buffer.from(
      kind === 'sim-config'
        ? '{"examination":"knee","bodyArea":"lower-limb","exposure":{"kv":60,"mAs":4}}'
        : '{"de":{"title":"Knie"}}',
    );
    return {
      route: `POST /api/v1/file/upload/${kind}`,
      fileField: 'file',
      fileName: `${kind}.json`,
      fileType: 'application/json',
      ext: 'json',
      sample,
      ofSize: (size) => Buffer.concat([sample, Buffer.alloc(size - sample.length, 0x20)]),
      typeError: 'Invalid file type. Allowed types are: application/json.',
      otherParts: () => [],
      async open(t) {
        const headers = {
          authorization: `Bearer ${await signToken(account('sys admin').sub)}`,
          ...xsrfHeaders(),
        };
        return (body) =>
          t.app.inject({
            method: 'POST',
            url: `/api/v1/file/upload/${kind}`,
            headers: { ...headers, 'content-type': body.contentType },
            payload: body.payload,
          });
      },
    };
  }),
  {
    route: 'POST /api/v1/file/upload/sim-installation-file',
    fileField: 'file',
    fileName: 'setup.zip',
    fileType: 'application/zip',
    ext: 'zip',
    sample: ZIP_BYTES,
    // Bytes after the archive's end record: still a file that starts as a ZIP.
    ofSize: (size) => Buffer.concat([ZIP_BYTES, Buffer.alloc(size - ZIP_BYTES.length, 0)]),
    typeError: 'Invalid file type. Allowed types are: .exe, .msi, .zip, .dmg, .pkg.',
    otherParts: () => [],
    async open(t) {
      const headers = {
        authorization: `Bearer ${await signToken(account('sys admin').sub)}`,
        ...xsrfHeaders(),
      };
      return (body) =>
        t.app.inject({
          method: 'POST',
          url: '/api/v1/file/upload/sim-installation-file',
          headers: { ...headers, 'content-type': body.contentType },
          payload: body.payload,
        });
    },
  },
];

const RESERVED = [
  'CON',
  'PRN',
  'AUX',
  'NUL',
  ...[1, 2, 3, 4, 5, 6, 7, 8, 9].flatMap((n) => [`COM${n}`, `LPT${n}`]),
];

describe('uploads', () => {
  let t: TestApp;
  before(async () => {
    // Installers may reach 2 GB; at the others' 10 MB the same limit tests cover their route too
    // (its own suite tests the streaming and a configured limit).
    t = await buildTestApp({ installerMaxBytes: MAX_UPLOAD_BYTES });
  });
  after(() => t.close());

  test('every upload route of the API is covered by this suite', async () => {
    await t.app.ready();
    const uploads = t.app.routeRateClasses
      .filter((r) => r.rateClass === 'upload')
      .map((r) => `${r.method} ${r.url}`);
    assert.ok(uploads.length > 0, 'the evidence upload at least');
    assert.deepEqual(uploads.sort(), TARGETS.map((target) => target.route).sort());
  });

  for (const target of TARGETS) {
    describe(target.route, () => {
      let send: Awaited<ReturnType<UploadTarget['open']>>;
      before(async () => {
        send = await target.open(t);
      });

      const file = (
        data: Buffer,
        fileName = target.fileName,
        type = target.fileType,
      ): FormPart => ({
        name: target.fileField,
        fileName,
        type,
        data,
      });
      const imageOfSize = target.ofSize;
      const PNG = target.sample;

      /** Sends the form; answers the response after checking that nothing was stored. */
      const refused = async (parts: FormPart[], status: number) => {
        // An earlier accepted image is marked by the outbox worker after its answer
        // (mark-evidence.ts): that work is its own, so it settles before the count.
        await t.app.outboxWorker.idle();
        const [rowsBefore, filesBefore] = [await rowCounts(t.db), await storedFiles()];
        const res = await send(rawMultipart(parts));
        assert.equal(
          res.statusCode,
          status,
          `${res.statusCode} ${res.body} ${JSON.stringify(parts.map((p) => ('fileName' in p ? p.fileName : p.name)))}`,
        );
        assert.deepEqual(await rowCounts(t.db), rowsBefore, 'no row written');
        assert.deepEqual(await storedFiles(), filesBefore, 'no file stored');
        return res;
      };

      test('a file of exactly 10 MB is accepted, so the limit below is the limit', async () => {
        const res = await send(
          rawMultipart([...target.otherParts(), file(imageOfSize(MAX_UPLOAD_BYTES))]),
        );
        assert.equal(res.statusCode, 201, res.body);
      });

      test('10 MB + 1 byte is 413 with the file rules message', async () => {
        const res = await refused(
          [...target.otherParts(), file(imageOfSize(MAX_UPLOAD_BYTES + 1))],
          413,
        );
        assert.deepEqual(res.json(), {
          [target.fileField]: ['File is too large. Max file size is 10MB'],
        });
      });

      test('HTML with an accepted name and type is refused as an invalid file type', async () => {
        const html = Buffer.from('<!doctype html><script>alert(document.domain)</script>');
        const res = await refused([...target.otherParts(), file(html)], 400);
        assert.deepEqual(res.json(), {
          [target.fileField]: [target.typeError],
        });
      });

      test('names with a path, markup or control characters are invalid', async () => {
        const names = [
          `../knee.${target.ext}`,
          `../../etc/passwd.${target.ext}`,
          `a/../../knee.${target.ext}`,
          `..\\knee.${target.ext}`,
          `/abs.${target.ext}`,
          `<script>.${target.ext}`,
          `knee<img src=x onerror=alert(1)>.${target.ext}`,
          `knee>.${target.ext}`,
          `nul\u0000byte.${target.ext}`,
          `bell\u0007.${target.ext}`,
          `esc\u001b[31m.${target.ext}`,
          `del\u007f.${target.ext}`,
          `c1\u0085.${target.ext}`,
          `tab\t.${target.ext}`,
        ];
        for (const name of names) {
          const res = await refused([...target.otherParts(), file(PNG, name)], 400);
          assert.deepEqual(
            res.json(),
            { [target.fileField]: ['File name is invalid.'] },
            JSON.stringify(name),
          );
        }
      });

      test('reserved device names are invalid with or without extension, in any case', async () => {
        for (const device of RESERVED) {
          const capitalised = device[0] + device.slice(1).toLowerCase();
          for (const name of [
            device,
            `${device.toLowerCase()}.${target.ext}`,
            `${capitalised}.${target.ext}`,
            `${device}.tar.${target.ext}`,
          ]) {
            const res = await refused([...target.otherParts(), file(PNG, name)], 400);
            assert.deepEqual(res.json(), { [target.fileField]: ['File name is invalid.'] }, name);
          }
        }
        // Only the whole first segment is reserved: these are ordinary names.
        for (const name of [
          `console.${target.ext}`,
          `com10.${target.ext}`,
          `auxiliary.${target.ext}`,
        ]) {
          const res = await send(rawMultipart([...target.otherParts(), file(PNG, name)]));
          assert.equal(res.statusCode, 201, `${name}: ${res.body}`);
        }
      });

      test('a second file part is refused, whatever its field name', async () => {
        for (const second of [
          file(PNG),
          { ...file(PNG), name: 'other', fileName: `other.${target.ext}` },
        ]) {
          const res = await refused([...target.otherParts(), file(PNG), second], 400);
          assert.deepEqual(res.json(), { [target.fileField]: ['Only one file may be uploaded.'] });
        }
      });

      test(
        'a form field over 64 KB is refused while streaming; 64 KB exactly is accepted',
        { skip: !target.dataField },
        async () => {
          const json = JSON.stringify(lessonEvidence());
          // JSON allows trailing blanks, so the field can be padded to any size and stay valid.
          const padded = (size: number) => json + ' '.repeat(size - Buffer.byteLength(json));
          const ok = await send(rawMultipart([{ name: 'data', value: padded(MAX_DATA_CHARS) }]));
          assert.equal(ok.statusCode, 201, ok.body);

          const res = await refused([{ name: 'data', value: padded(MAX_DATA_CHARS + 1) }], 400);
          assert.deepEqual(res.json(), {
            data: [`Ensure this field has no more than ${MAX_DATA_CHARS} characters.`],
          });
          const typed = await refused(
            [{ name: 'data', value: padded(MAX_DATA_CHARS + 1), type: 'application/json' }],
            400,
          );
          assert.deepEqual(Object.keys(typed.json()), ['data']);
          // As a file part, the field would escape the field limit.
          const asFile = await refused(
            [
              {
                name: 'data',
                fileName: 'data.json',
                type: 'application/json',
                data: Buffer.from(json),
              },
            ],
            400,
          );
          assert.deepEqual(asFile.json(), { data: ['Send data as a text field, not as a file.'] });
        },
      );
    });
  }
});

import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import type { Queryable } from '../../src/db/driver';
import { MAX_UPLOAD_BYTES } from '../../src/lib/upload-rules';
import { MAX_DATA_CHARS } from '../../src/routes/api/v1/simulator/evidence-form';
import { buildTestApp, TEST_STORAGE_DIR, type TestApp } from '../helper';
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
  /** Everything but the file that a valid form needs. */
  otherParts(): FormPart[];
  /** Sends a multipart body (already encoded) to a fresh, ready target. */
  open(t: TestApp): Promise<(body: Multipart) => Promise<LightMyRequestResponse>>;
}

/** One entry per upload route; the first test fails when a route is missing here. */
const TARGETS: readonly UploadTarget[] = [
  {
    route: 'POST /api/v1/simulator/session/evidence',
    fileField: 'image',
    fileName: 'knee-ap.png',
    fileType: 'image/png',
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
    t = await buildTestApp();
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
      /** A valid image of exactly `size` bytes (only the signature is checked). */
      const imageOfSize = (size: number) =>
        Buffer.concat([PNG, Buffer.alloc(size - PNG.length, 0)]);

      /** Sends the form; answers the response after checking that nothing was stored. */
      const refused = async (parts: FormPart[], status: number) => {
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

      test('10 MB + 1 byte is 413 with the spec message', async () => {
        const res = await refused(
          [...target.otherParts(), file(imageOfSize(MAX_UPLOAD_BYTES + 1))],
          413,
        );
        assert.deepEqual(res.json(), {
          [target.fileField]: ['File is too large. Max file size is 10MB'],
        });
      });

      test('HTML with a .png name and an image type is refused as an invalid file type', async () => {
        const html = Buffer.from('<!doctype html><script>alert(document.domain)</script>');
        const res = await refused([...target.otherParts(), file(html)], 400);
        assert.deepEqual(res.json(), {
          [target.fileField]: ['Invalid file type. Allowed types are: image/png, image/jpeg.'],
        });
      });

      test('names with a path, markup or control characters are invalid', async () => {
        const names = [
          '../knee.png',
          '../../etc/passwd.png',
          'a/../../knee.png',
          '..\\knee.png',
          '/abs.png',
          '<script>.png',
          'knee<img src=x onerror=alert(1)>.png',
          'knee>.png',
          'nul\u0000byte.png',
          'bell\u0007.png',
          'esc\u001b[31m.png',
          'del\u007f.png',
          'c1\u0085.png',
          'tab\t.png',
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
            `${device.toLowerCase()}.png`,
            `${capitalised}.png`,
            `${device}.tar.png`,
          ]) {
            const res = await refused([...target.otherParts(), file(PNG, name)], 400);
            assert.deepEqual(res.json(), { [target.fileField]: ['File name is invalid.'] }, name);
          }
        }
        // Only the whole first segment is reserved: these are ordinary names.
        for (const name of ['console.png', 'com10.png', 'auxiliary.png']) {
          const res = await send(rawMultipart([...target.otherParts(), file(PNG, name)]));
          assert.equal(res.statusCode, 201, `${name}: ${res.body}`);
        }
      });

      test('a second file part is refused, whatever its field name', async () => {
        for (const second of [file(PNG), { ...file(PNG), name: 'other', fileName: 'other.png' }]) {
          const res = await refused([...target.otherParts(), file(PNG), second], 400);
          assert.deepEqual(res.json(), { [target.fileField]: ['Only one file may be uploaded.'] });
        }
      });

      test('a form field over 64 KB is refused while streaming; 64 KB exactly is accepted', async () => {
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
      });
    });
  }
});

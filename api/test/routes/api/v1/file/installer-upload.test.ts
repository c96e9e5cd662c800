import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import type { FileDownload, SimulationDownload, UploadedFile } from '@portal/contract';
import { buildApp } from '../../../../../src/app';
import { createLocalStorage } from '../../../../../src/storage/local-storage';
import type { Storage } from '../../../../../src/storage/storage';
import {
  authHeader,
  buildTestApp,
  createTestDatabase,
  TEST_STORAGE_DIR,
  testConfig,
  testJwks,
  xsrfHeaders,
  type TestApp,
} from '../../../../helper';
import { startS3Server } from '../../../../storage/s3-server';
import {
  createdDownload,
  DMG_BYTES,
  EXE_BYTES,
  headers,
  installerForm,
  learner,
  orgAdmin,
  productId,
  sysAdmin,
  uploadInstaller,
  ZIP_BYTES,
} from '../product/simulation-download-fixtures';

const URL_PATH = '/api/v1/file/upload/sim-installation-file';
const SMALL_LIMIT = 256 * 1024;

interface StreamCall {
  key: string;
  isStream: boolean;
  /** Bytes the store has received so far. */
  bytes: number;
}

/** Local disk, recording how the route hands bytes over. */
function spyStorage(dir: string): { storage: Storage; streamed: StreamCall[]; buffered: string[] } {
  const inner = createLocalStorage({ dir, ttlSeconds: 60 });
  const streamed: StreamCall[] = [];
  const buffered: string[] = [];
  const storage: Storage = {
    ...inner,
    async put(key, data, type) {
      buffered.push(key);
      return inner.put(key, data, type);
    },
    async putStream(key, body, type) {
      const call: StreamCall = { key, isStream: body instanceof Readable, bytes: 0 };
      streamed.push(call);
      const counter = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          call.bytes += chunk.length;
          done(null, chunk);
        },
      });
      body.on('error', (error) => counter.destroy(error));
      return inner.putStream(key, body.pipe(counter), type);
    },
  };
  return { storage, streamed, buffered };
}

const installerFiles = (dir: string) => {
  const folder = join(dir, 'sim-installation-file');
  return existsSync(folder) ? readdirSync(folder) : [];
};

async function fileRows(t: { db: TestApp['db'] }) {
  const res = await t.db.query<{ n: number }>(
    `select count(*)::int as n from files where kind = 'sim-installation-file'`,
  );
  return res.rows[0]!.n;
}

describe('POST /api/v1/file/upload/sim-installation-file (limit 256 KB, spied storage)', () => {
  let t: TestApp;
  let spy: ReturnType<typeof spyStorage>;
  const dir = join(TEST_STORAGE_DIR, `installers-${randomBytes(4).toString('hex')}`);

  before(async () => {
    const database = await createTestDatabase();
    spy = spyStorage(dir);
    const app = await buildApp({
      config: testConfig({ installerMaxBytes: SMALL_LIMIT }),
      db: database.db,
      jwks: testJwks,
      logger: false,
      storage: spy.storage,
    });
    t = {
      app,
      db: database.db,
      close: async () => {
        await app.close();
        await database.dispose();
      },
    };
  });
  after(() => t.close());

  test('stores zip, exe and dmg installers: 201 with name, size and state uploaded, audited', async () => {
    for (const [bytes, name] of [
      [ZIP_BYTES, 'Radiography 3.0.0.zip'],
      [EXE_BYTES, 'setup.exe'],
      [DMG_BYTES, 'Radiography.dmg'],
    ] as const) {
      const res = await uploadInstaller(t, sysAdmin.sub, bytes, name);
      assert.equal(res.statusCode, 201, `${name}: ${res.body}`);
      const file = res.json<UploadedFile>();
      assert.deepEqual(
        { ...file, id: '' },
        { id: '', originalName: name, size: bytes.length, state: 'uploaded' },
      );
      const row = await t.db.query<{ size: string; owner_id: string; storage_key: string }>(
        'select size::text as size, owner_id::text as owner_id, storage_key from files where id = $1',
        [file.id],
      );
      assert.equal(Number(row.rows[0]!.size), bytes.length);
      assert.equal(row.rows[0]!.owner_id, sysAdmin.sub);
      const stored = await spy.storage.open(row.rows[0]!.storage_key);
      assert.equal(stored?.size, bytes.length);
      stored?.stream.destroy();
      const audit = await t.db.query(
        `select 1 from audit_log where entity_type = 'file' and entity_id = $1 and action = 'create'`,
        [file.id],
      );
      assert.equal(audit.rowCount, 1);
    }
  });

  test('the store receives the bytes while the upload is still arriving', async () => {
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const address = t.app.server.address();
    assert.ok(address && typeof address === 'object');
    spy.streamed.length = 0;
    spy.buffered.length = 0;
    const boundary = '----installer-spy';
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="slow.zip"\r\n` +
        'Content-Type: application/zip\r\n\r\n',
    );
    const first = Buffer.concat([ZIP_BYTES, Buffer.alloc(64 * 1024 - ZIP_BYTES.length, 1)]);
    const rest = Buffer.alloc(128 * 1024, 2);
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const auth = await authHeader(sysAdmin.sub);
    const req = httpRequest(`http://127.0.0.1:${address.port}${URL_PATH}`, {
      method: 'POST',
      headers: {
        ...auth,
        ...xsrfHeaders(),
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': String(head.length + first.length + rest.length + tail.length),
      },
    });
    const answered = new Promise<{ status: number; body: string }>((resolve, reject) => {
      req.on('response', (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      });
      req.on('error', reject);
    });
    req.write(Buffer.concat([head, first]));
    // The rest of the body is held back until the store has bytes: a route that buffered the
    // file first would never hand anything over, and this would time out.
    const deadline = Date.now() + 20_000;
    while (!(spy.streamed[0]?.bytes ?? 0)) {
      assert.ok(Date.now() < deadline, 'the store got no bytes before the upload ended');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const early = spy.streamed[0]!.bytes;
    assert.ok(early <= first.length, `${early} bytes stored before the rest was sent`);
    req.end(Buffer.concat([rest, tail]));
    const res = await answered;
    assert.equal(res.status, 201, res.body);
    assert.equal(JSON.parse(res.body).size, first.length + rest.length);
    assert.equal(spy.streamed.length, 1);
    assert.ok(spy.streamed[0]!.isStream);
    assert.equal(spy.streamed[0]!.bytes, first.length + rest.length);
    assert.deepEqual(spy.buffered, [], 'put() with a whole buffer was not used');
  });

  test('one byte over the limit is a 413 and nothing is kept', async () => {
    const rows = await fileRows(t);
    const files = installerFiles(dir).length;
    const bytes = Buffer.concat([ZIP_BYTES, randomBytes(SMALL_LIMIT + 1 - ZIP_BYTES.length)]);
    const res = await uploadInstaller(t, sysAdmin.sub, bytes, 'too-big.zip');
    assert.equal(res.statusCode, 413, res.body);
    assert.deepEqual(res.json(), { file: ['File is too large. Max file size is 256KB'] });
    assert.equal(await fileRows(t), rows, 'no file row');
    assert.equal(installerFiles(dir).length, files, 'no stored bytes, no partial file');
    // Far over the limit too.
    const huge = await uploadInstaller(
      t,
      sysAdmin.sub,
      Buffer.alloc(4 * SMALL_LIMIT, 0x50),
      'huge.zip',
    );
    assert.equal(huge.statusCode, 413);
    assert.equal(await fileRows(t), rows);
  });

  test('wrong extensions and names are 400 before anything is stored', async () => {
    const rows = await fileRows(t);
    for (const [name, message] of [
      ['setup.sh', 'File extension is not valid. Allowed extensions are: exe, msi, zip, dmg, pkg.'],
      [
        'installer.txt',
        'File extension is not valid. Allowed extensions are: exe, msi, zip, dmg, pkg.',
      ],
      [
        'noextension',
        'File extension is not valid. Allowed extensions are: exe, msi, zip, dmg, pkg.',
      ],
      ['../../setup.zip', 'File name is invalid.'],
      ['CON.zip', 'File name is invalid.'],
      [`${'a'.repeat(256)}.zip`, 'File name is too long.'],
    ] as const) {
      const res = await uploadInstaller(t, sysAdmin.sub, ZIP_BYTES, name);
      assert.equal(res.statusCode, 400, name);
      assert.deepEqual(res.json(), { file: [message] }, name);
    }
    assert.equal(await fileRows(t), rows);
  });

  test('bytes of another kind than the extension says are 400 and nothing is kept', async () => {
    const rows = await fileRows(t);
    const files = installerFiles(dir).length;
    for (const [bytes, name] of [
      [ZIP_BYTES, 'setup.exe'],
      [Buffer.from('<html><script>alert(1)</script></html>'), 'setup.zip'],
      [EXE_BYTES, 'Radiography.dmg'],
      [Buffer.from('MZ'), 'x.msi'],
      [Buffer.from('M'), 'tiny.exe'],
    ] as const) {
      const res = await uploadInstaller(t, sysAdmin.sub, bytes, name);
      assert.equal(res.statusCode, 400, name);
      assert.deepEqual(
        res.json(),
        { file: ['Invalid file type. Allowed types are: .exe, .msi, .zip, .dmg, .pkg.'] },
        name,
      );
    }
    const empty = await uploadInstaller(t, sysAdmin.sub, Buffer.alloc(0), 'empty.zip');
    assert.equal(empty.statusCode, 400);
    assert.deepEqual(empty.json(), { file: ['The submitted file is empty.'] });
    assert.equal(await fileRows(t), rows);
    assert.equal(installerFiles(dir).length, files);
  });

  test('forms without exactly one file field are 400', async () => {
    const rows = await fileRows(t);
    const json = await t.app.inject({
      method: 'POST',
      url: URL_PATH,
      headers: await headers(sysAdmin.sub),
      payload: { file: 'x' },
    });
    assert.equal(json.statusCode, 400);
    const { rawMultipart } = await import('../simulator/session-fixtures');
    for (const parts of [
      [{ name: 'other', fileName: 'a.zip', type: 'application/zip', data: ZIP_BYTES }],
      [
        { name: 'file', fileName: 'a.zip', type: 'application/zip', data: ZIP_BYTES },
        { name: 'file', fileName: 'b.zip', type: 'application/zip', data: ZIP_BYTES },
      ],
      [{ name: 'note', value: 'no file' }],
    ]) {
      const form = rawMultipart(parts);
      const res = await t.app.inject({
        method: 'POST',
        url: URL_PATH,
        headers: { ...(await headers(sysAdmin.sub)), 'content-type': form.contentType },
        payload: form.payload,
      });
      assert.equal(res.statusCode, 400, res.body);
      assert.ok(res.json<Record<string, string[]>>().file, res.body);
    }
    assert.equal(await fileRows(t), rows, 'a stored first file is removed when the form fails');
  });

  test('only global administrators upload installers', async () => {
    const rows = await fileRows(t);
    assert.equal((await uploadInstaller(t, orgAdmin.sub)).statusCode, 403);
    assert.equal((await uploadInstaller(t, learner.sub)).statusCode, 403);
    const form = installerForm(ZIP_BYTES);
    const anonymous = await t.app.inject({
      method: 'POST',
      url: URL_PATH,
      headers: { ...xsrfHeaders(), 'content-type': form.contentType },
      payload: form.payload,
    });
    assert.equal(anonymous.statusCode, 401);
    assert.equal(await fileRows(t), rows);
  });
});

describe('installer upload over a real socket (2 GB limit)', () => {
  let t: TestApp;
  let base: string;
  before(async () => {
    t = await buildTestApp();
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const address = t.app.server.address();
    assert.ok(address && typeof address === 'object');
    base = `http://127.0.0.1:${address.port}`;
  });
  after(() => t.close());

  test('a 128 MB installer streams through without the process holding it', async (tc) => {
    const total = 128 * 1024 * 1024;
    const boundary = '----installer-stream-test';
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.zip"\r\n` +
        'Content-Type: application/zip\r\n\r\n',
    );
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const piece = Buffer.alloc(256 * 1024, 0x41);
    async function* body() {
      yield head;
      yield Buffer.concat([ZIP_BYTES, piece.subarray(ZIP_BYTES.length)]);
      for (let sent = piece.length; sent < total; sent += piece.length) yield piece;
      yield tail;
    }
    global.gc?.();
    const baseline = process.memoryUsage().arrayBuffers;
    let peak = baseline;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().arrayBuffers);
    }, 5);
    const auth = await authHeader(sysAdmin.sub);
    const response = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(`${base}${URL_PATH}`, {
        method: 'POST',
        headers: {
          ...auth,
          ...xsrfHeaders(),
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': String(head.length + total + tail.length),
        },
      });
      req.on('response', (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      });
      req.on('error', reject);
      Readable.from(body()).pipe(req);
    });
    clearInterval(sampler);
    assert.equal(response.status, 201, response.body);
    assert.equal(JSON.parse(response.body).size, total);
    const grownMb = (peak - baseline) / 1024 / 1024;
    tc.diagnostic(`buffers grew by at most ${grownMb.toFixed(1)} MB for a 128 MB upload`);
    assert.ok(grownMb < 48, `buffers grew by ${grownMb.toFixed(1)} MB`);
  });
});

describe('installers on S3-compatible storage (s3rver on 127.0.0.1)', () => {
  let t: TestApp;
  let s3: Awaited<ReturnType<typeof startS3Server>>;
  before(async () => {
    s3 = await startS3Server();
    t = await buildTestApp({ s3: s3.config });
  });
  after(async () => {
    await t.close();
    await s3.close();
  });

  test('upload → version → the learner’s link is a presigned URL of the store with the same bytes', async () => {
    assert.equal(t.app.storage.kind, 's3');
    const bytes = Buffer.concat([ZIP_BYTES, randomBytes(6 * 1024 * 1024)]);
    const res = await uploadInstaller(t, sysAdmin.sub, bytes, 'radiography-s3.zip');
    assert.equal(res.statusCode, 201, res.body);
    const file = res.json<UploadedFile>();
    const radiography = await productId(t.db, 'radiography');
    const created: SimulationDownload = await createdDownload(t, radiography, { fileId: file.id });
    assert.equal(created.file?.state, 'saved');

    const link = await t.app.inject({
      url: `/api/v1/file/${file.id}/download/sim-installation-file`,
      headers: await authHeader(learner.sub),
    });
    assert.equal(link.statusCode, 200, link.body);
    const { url, originalName } = link.json<FileDownload>();
    assert.equal(originalName, 'radiography-s3.zip');
    assert.ok(url.startsWith(`${s3.config.endpoint}/portal-test/sim-installation-file/`), url);
    assert.match(url, /X-Amz-Signature=[0-9a-f]{64}/);
    assert.match(url, /X-Amz-Expires=300/);
    const fetched = await fetch(url);
    assert.equal(fetched.status, 200);
    assert.ok(Buffer.from(await fetched.arrayBuffer()).equals(bytes));
    assert.equal(
      fetched.headers.get('content-disposition'),
      `attachment; filename*=UTF-8''radiography-s3.zip`,
    );
  });
});

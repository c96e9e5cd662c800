import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createLocalStorage, isValidStorageKey } from '../../src/storage/local-storage';
import { buildTestApp, type TestApp } from '../helper';

const readAll = async (stream: NodeJS.ReadableStream) => {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
};

describe('local storage', () => {
  const dir = mkdtempSync(join(tmpdir(), 'portal-storage-test-'));
  const storage = createLocalStorage({ dir, ttlSeconds: 60, secret: 'a'.repeat(32) });
  const query = (url: string) => Object.fromEntries(new URL(url, 'http://x').searchParams);

  test('stores, reads and removes bytes by key', async () => {
    await storage.put('evidence/abc/0.png', Buffer.from('png'));
    const opened = await storage.open('evidence/abc/0.png');
    assert.equal(opened?.size, 3);
    assert.equal((await readAll(opened!.stream)).toString(), 'png');
    await storage.remove('evidence/abc/0.png');
    assert.equal(await storage.open('evidence/abc/0.png'), null);
    await storage.remove('evidence/abc/0.png');
  });

  test('keys cannot leave the storage folder', async () => {
    for (const key of [
      '../etc/passwd',
      'evidence/../../x',
      '/abs/path',
      'evidence',
      'Upper/x',
      'a/b c',
    ]) {
      assert.equal(isValidStorageKey(key), false, key);
      await assert.rejects(storage.put(key, Buffer.from('x')));
      await assert.rejects(storage.signedUrl(key, { contentType: 'text/plain' }));
    }
    assert.equal(isValidStorageKey('installers/radiography/2.4.1/radiography-2.4.1-mac.zip'), true);
  });

  test('a signed URL verifies as issued, with its content type and download name', async () => {
    const url = await storage.signedUrl('user/x/users.csv', {
      contentType: 'text/csv',
      downloadName: 'Users list.csv',
    });
    assert.ok(url.startsWith('/api/v1/storage/user/x/users.csv?'));
    assert.deepEqual(storage.verify('user/x/users.csv', query(url)), {
      contentType: 'text/csv',
      downloadName: 'Users list.csv',
    });
    const inline = await storage.signedUrl('evidence/y/0.png', { contentType: 'image/png' });
    assert.deepEqual(storage.verify('evidence/y/0.png', query(inline)), {
      contentType: 'image/png',
    });
  });

  test('tampering with any signed part, or another key, fails verification', async () => {
    const url = await storage.signedUrl('user/x/users.csv', {
      contentType: 'text/csv',
      downloadName: 'a.csv',
    });
    const q = query(url);
    assert.equal(storage.verify('user/x/other.csv', q), null);
    assert.equal(storage.verify('user/x/users.csv', { ...q, type: 'text/html' }), null);
    assert.equal(storage.verify('user/x/users.csv', { ...q, name: 'b.csv' }), null);
    assert.equal(
      storage.verify('user/x/users.csv', { ...q, expires: String(Number(q.expires) + 3600) }),
      null,
    );
    // Change the signature's last character to one it is not (it may already be 'A').
    const lastChar = q.sig!.slice(-1) === 'A' ? 'B' : 'A';
    assert.equal(
      storage.verify('user/x/users.csv', { ...q, sig: `${q.sig!.slice(0, -1)}${lastChar}` }),
      null,
    );
    assert.equal(storage.verify('user/x/users.csv', { ...q, sig: 'short' }), null);
    assert.equal(storage.verify('user/x/users.csv', { ...q, sig: undefined }), null);
    const otherSecret = createLocalStorage({ dir, ttlSeconds: 60, secret: 'b'.repeat(32) });
    assert.equal(otherSecret.verify('user/x/users.csv', q), null);
  });

  test('a signed URL expires after its time to live', async () => {
    const url = await storage.signedUrl('evidence/y/0.png', {
      contentType: 'image/png',
      ttlSeconds: 30,
    });
    const q = query(url);
    const now = Date.now();
    assert.ok(storage.verify('evidence/y/0.png', q, now + 29_000));
    assert.equal(storage.verify('evidence/y/0.png', q, now + 31_000), null);
    assert.equal(storage.verify('evidence/y/0.png', { ...q, expires: 'soon' }), null);
  });
});

describe('GET /api/v1/storage/* (signed file URLs)', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp();
    await t.app.storage.put('evidence/route-test/0.png', Buffer.from('image bytes'));
  });
  after(() => t.close());

  test('serves the bytes without a token, with the signed content type', async () => {
    const url = await t.app.storage.signedUrl('evidence/route-test/0.png', {
      contentType: 'image/png',
    });
    const res = await t.app.inject({ url });
    assert.equal(res.statusCode, 200);
    assert.equal(res.body, 'image bytes');
    assert.equal(res.headers['content-type'], 'image/png');
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
    // An evidence image shows in the report's <img>.
    assert.equal(res.headers['content-disposition'], 'inline');
  });

  test('every file is sandboxed and never sniffed; only PNG and JPEG show inline', async () => {
    await t.app.storage.put('user/route-test/page.html', Buffer.from('<script>alert(1)</script>'));
    const cases: Array<[type: string, disposition: string]> = [
      ['image/png', 'inline'],
      ['image/jpeg', 'inline'],
      ['text/html', 'attachment'],
      ['image/svg+xml', 'attachment'],
      ['application/json', 'attachment'],
      ['text/csv', 'attachment'],
      ['application/octet-stream', 'attachment'],
    ];
    for (const [contentType, disposition] of cases) {
      const url = await t.app.storage.signedUrl('user/route-test/page.html', { contentType });
      const res = await t.app.inject({ url });
      assert.equal(res.statusCode, 200, contentType);
      assert.equal(res.headers['content-disposition'], disposition, contentType);
      assert.equal(res.headers['x-content-type-options'], 'nosniff', contentType);
      const csp = String(res.headers['content-security-policy']).split(/;\s*/);
      assert.ok(csp.includes('sandbox'), `${contentType}: ${csp.join('; ')}`);
      assert.ok(csp.includes("default-src 'none'"), contentType);
      assert.ok(csp.includes("frame-ancestors 'none'"), contentType);
    }
  });

  test('a download name makes it an attachment', async () => {
    const url = await t.app.storage.signedUrl('evidence/route-test/0.png', {
      contentType: 'image/png',
      downloadName: 'Knee AP (1).png',
    });
    const res = await t.app.inject({ url });
    assert.equal(
      res.headers['content-disposition'],
      `attachment; filename*=UTF-8''Knee%20AP%20(1).png`,
    );
  });

  test('tampered, unsigned, expired or missing files are not found', async () => {
    const url = await t.app.storage.signedUrl('evidence/route-test/0.png', {
      contentType: 'image/png',
    });
    const tampered = [
      url.replace('type=image%2Fpng', 'type=text%2Fhtml'),
      url.replace('/0.png', '/1.png'),
      url.replace(/sig=[^&]+/, 'sig=forged'),
      url.replace(/expires=\d+/, 'expires=9999999999'),
      url.split('?')[0]!,
    ];
    for (const bad of tampered) {
      const res = await t.app.inject({ url: bad });
      assert.equal(res.statusCode, 404, bad);
      assert.deepEqual(res.json(), { detail: 'Not found.' });
    }
    const expired = await t.app.storage.signedUrl('evidence/route-test/0.png', {
      contentType: 'image/png',
      ttlSeconds: -1,
    });
    assert.equal((await t.app.inject({ url: expired })).statusCode, 404);
    const gone = await t.app.storage.signedUrl('evidence/route-test/missing.png', {
      contentType: 'image/png',
    });
    assert.equal((await t.app.inject({ url: gone })).statusCode, 404);
    const traversal = await t.app.inject({
      url: '/api/v1/storage/evidence/../../etc/passwd?expires=1&type=a&sig=b',
    });
    assert.equal(traversal.statusCode, 404);
  });
});

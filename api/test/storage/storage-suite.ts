import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, test } from 'node:test';
import type { Storage } from '../../src/storage/storage';

/** A full garbage collection, without starting node with --expose-gc. */
function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

export interface Fetched {
  status: number;
  body: Buffer;
  headers: Record<string, string | undefined>;
}

export interface StorageUnderTest {
  storage: Storage;
  /** GETs a signed URL the way a browser would: the API's own route, or the store itself. */
  get(url: string): Promise<Fetched>;
  /**
   * Whether the server checks who asks at all: s3rver serves anonymous and forged requests alike
   * (a real private bucket does not), so those checks only run where they mean something.
   */
  checksSignatures: boolean;
}

const readAll = async (stream: Readable) => {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
};

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/** `total` bytes in `chunk`-sized pieces of one reused buffer: a large body that costs no memory. */
function generated(total: number, chunk = 64 * 1024, fill = 0x5a): Readable {
  const piece = Buffer.alloc(chunk, fill);
  let sent = 0;
  return new Readable({
    read() {
      if (sent >= total) return void this.push(null);
      const size = Math.min(chunk, total - sent);
      sent += size;
      this.push(size === chunk ? piece : piece.subarray(0, size));
    },
  });
}

/** A body that sends `before` bytes, then fails as a cut-off upload would. */
function failingAfter(before: number): Readable {
  let sent = false;
  return new Readable({
    read() {
      if (!sent) {
        sent = true;
        this.push(Buffer.alloc(before, 1));
      } else {
        this.destroy(new Error('client went away'));
      }
    },
  });
}

/**
 * The behaviour every storage backend owes the API, run against local disk and against an
 * S3-compatible server alike (test/storage/storage.test.ts).
 */
export function storageSuite(name: string, setup: () => StorageUnderTest) {
  describe(`storage contract: ${name}`, () => {
    const key = (file: string) => `suite/${randomUUID()}/${file}`;

    test('stores, reads and removes bytes by key; a missing key opens as null', async () => {
      const { storage } = setup();
      const k = key('a.txt');
      await storage.put(k, Buffer.from('hello'), 'text/plain');
      const opened = await storage.open(k);
      assert.equal(opened?.size, 5);
      assert.equal((await readAll(opened!.stream)).toString(), 'hello');
      await storage.remove(k);
      assert.equal(await storage.open(k), null);
      // Removing what is gone is no error: a retried cleanup must not fail.
      await storage.remove(k);
      assert.equal(await storage.open(key('never.txt')), null);
    });

    test('putStream stores a streamed body of several parts and counts its bytes', async () => {
      const { storage } = setup();
      const k = key('installer.zip');
      // Over two S3 parts (5 MB each), with a last part of odd size.
      const total = 12 * 1024 * 1024 + 123;
      const written = await storage.putStream(k, generated(total), 'application/zip');
      assert.equal(written, total);
      const opened = await storage.open(k);
      assert.equal(opened?.size, total);
      const back = await readAll(opened!.stream);
      assert.equal(sha256(back), sha256(Buffer.alloc(total, 0x5a)));
      await storage.remove(k);
    });

    test('putStream does not hold the body in memory', async (t) => {
      const { storage } = setup();
      const k = key('big.bin');
      const total = 96 * 1024 * 1024;
      const limitMb = 48;
      collectGarbage();
      const baseline = process.memoryUsage().arrayBuffers;
      let peak = baseline;
      // What the store holds, not parts already sent and not yet collected: a sample over the
      // limit counts only what survives a collection (one CI run saw 52.5 MB of such garbage
      // where 30 MB is usual).
      const sampler = setInterval(() => {
        let now = process.memoryUsage().arrayBuffers;
        if ((now - baseline) / 1024 / 1024 >= limitMb) {
          collectGarbage();
          now = process.memoryUsage().arrayBuffers;
        }
        peak = Math.max(peak, now);
      }, 2);
      try {
        assert.equal(
          await storage.putStream(k, generated(total), 'application/octet-stream'),
          total,
        );
      } finally {
        clearInterval(sampler);
      }
      const grownMb = (peak - baseline) / 1024 / 1024;
      t.diagnostic(`${name}: buffers grew by at most ${grownMb.toFixed(1)} MB for 96 MB`);
      // A buffered body would add its 96 MB; streaming holds a few parts at most (S3: 2 × 5 MB
      // plus what the in-process test server holds while writing a part).
      assert.ok(grownMb < limitMb, `buffers grew by ${grownMb.toFixed(1)} MB for a 96 MB body`);
      await storage.remove(k);
    });

    test('a body that fails half-way leaves nothing under the key', async () => {
      const { storage } = setup();
      const small = key('cut-small.bin');
      await assert.rejects(
        storage.putStream(small, failingAfter(1000), 'application/octet-stream'),
        /client went away/,
      );
      assert.equal(await storage.open(small), null);
      // Past the first S3 part, so a multipart upload was under way and must be aborted.
      const large = key('cut-large.bin');
      const body = new Readable({ read() {} });
      body.push(Buffer.alloc(6 * 1024 * 1024, 2));
      setTimeout(() => body.destroy(new Error('client went away')), 50);
      await assert.rejects(storage.putStream(large, body, 'application/octet-stream'));
      assert.equal(await storage.open(large), null);
    });

    test('a signed URL serves the bytes with our content type and download name', async () => {
      const { storage, get } = setup();
      const k = key('setup.exe');
      await storage.put(k, Buffer.from('MZ installer'), 'application/octet-stream');
      const url = await storage.signedUrl(k, {
        contentType: 'application/vnd.microsoft.portable-executable',
        downloadName: 'Radiography Setup 3.0.0.exe',
      });
      const res = await get(url);
      assert.equal(res.status, 200);
      assert.equal(res.body.toString(), 'MZ installer');
      assert.equal(res.headers['content-type'], 'application/vnd.microsoft.portable-executable');
      assert.equal(
        res.headers['content-disposition'],
        `attachment; filename*=UTF-8''Radiography%20Setup%203.0.0.exe`,
      );
      // An unnamed image may show in an <img>.
      const image = key('0.png');
      await storage.put(image, Buffer.from('png'), 'image/png');
      const inline = await get(await storage.signedUrl(image, { contentType: 'image/png' }));
      assert.equal(inline.status, 200);
      assert.equal(inline.headers['content-disposition'], 'inline');
    });

    test('a signed URL stops working after its time to live', async () => {
      const { storage, get } = setup();
      const k = key('short.txt');
      await storage.put(k, Buffer.from('soon gone'), 'text/plain');
      const url = await storage.signedUrl(k, { contentType: 'text/plain', ttlSeconds: 1 });
      assert.equal((await get(url)).status, 200);
      await sleep(2100);
      const late = await get(url);
      assert.ok([403, 404].includes(late.status), `expired URL answered ${late.status}`);
      assert.notEqual(late.body.toString(), 'soon gone');
    });

    test('a URL without its signature, or with a forged one, serves nothing', async () => {
      const { storage, get, checksSignatures } = setup();
      const k = key('secret.txt');
      await storage.put(k, Buffer.from('private'), 'text/plain');
      const url = await storage.signedUrl(k, { contentType: 'text/plain' });
      // s3rver serves any request (no bucket policy, no SigV4 check); a real store refuses.
      if (!checksSignatures) return;
      const bare = await get(url.split('?')[0]!);
      assert.ok([403, 404].includes(bare.status), `unsigned URL answered ${bare.status}`);
      const parsed = new URL(url, 'http://api.test');
      const sigName = parsed.searchParams.has('sig') ? 'sig' : 'X-Amz-Signature';
      const sig = parsed.searchParams.get(sigName)!;
      parsed.searchParams.set(sigName, (sig[0] === 'a' ? 'b' : 'a') + sig.slice(1));
      const forged = await get(
        url.startsWith('/') ? `${parsed.pathname}${parsed.search}` : `${parsed}`,
      );
      assert.ok([403, 404].includes(forged.status), `forged URL answered ${forged.status}`);
    });

    test('keys that could leave their place are refused by every operation', async () => {
      const { storage } = setup();
      for (const bad of ['../etc/passwd', 'suite/../../x', '/abs/path', 'suite', 'a/b c']) {
        await assert.rejects(storage.put(bad, Buffer.from('x')), bad);
        await assert.rejects(
          storage.putStream(bad, Readable.from([Buffer.from('x')]), 'text/plain'),
          bad,
        );
        await assert.rejects(storage.signedUrl(bad, { contentType: 'text/plain' }), bad);
      }
    });
  });
}

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type {
  AuditEntry,
  DownloadGroup,
  FileDownload,
  PagedResult,
  SimulationDownload,
} from '@portal/contract';
import { authHeader, buildTestApp, type TestApp } from '../../../../helper';
import {
  createdDownload,
  downloadUrl,
  freshVersion,
  headers,
  learner,
  orgAdmin,
  otherLearner,
  otherOrgAdmin,
  productId,
  saveDownload,
  sysAdmin,
  uploadedInstaller,
  ZIP_BYTES,
} from './simulation-download-fixtures';

describe('/api/v1/product/:id/simulation-download', () => {
  let t: TestApp;
  let radiography: number;
  let birthing: number;

  const get = async (sub: string, url: string) => {
    const res = await t.app.inject({ url, headers: await authHeader(sub) });
    return { status: res.statusCode, body: res.json() as unknown };
  };
  const valid = (over: Record<string, unknown> = {}) => ({
    version: freshVersion(),
    operatingSystem: 'windows',
    fileUrl: 'https://downloads.example.test/radiography/setup.exe',
    ...over,
  });

  before(async () => {
    t = await buildTestApp();
    radiography = await productId(t.db, 'radiography');
    birthing = await productId(t.db, 'birthing');
  });
  after(() => t.close());

  test('lists the product’s versions, active first and newest first by default', async () => {
    const { status, body } = await get(orgAdmin.sub, downloadUrl(radiography));
    assert.equal(status, 200);
    const page = body as PagedResult<SimulationDownload>;
    // The seed: 2.4.1 (active) and 2.3.0 (withdrawn) for Windows and macOS.
    assert.deepEqual(
      page.results.map((d) => [d.version, d.operatingSystem, d.isActive]),
      [
        ['2.4.1', 'windows', true],
        ['2.4.1', 'mac', true],
        ['2.3.0', 'windows', false],
        ['2.3.0', 'mac', false],
      ].sort((a, b) => Number(b[2]) - Number(a[2])),
    );
    assert.equal(page.count, 4);
    assert.equal(page.totalPages, 1);
    const first = page.results[0]!;
    assert.equal(first.product, radiography);
    assert.equal(first.file?.state, 'saved');
    assert.equal(first.fileId, first.file?.id);
  });

  test('orders numerically by version, filters, and refuses unknown orderings', async () => {
    const older = await createdDownload(t, radiography, {
      version: '2.9.1',
      operatingSystem: 'mac',
    });
    const newer = await createdDownload(t, radiography, {
      version: '2.10.0',
      operatingSystem: 'mac',
    });
    const byVersion = (
      await get(orgAdmin.sub, `${downloadUrl(radiography)}?ordering=-version&filter=2.`)
    ).body as PagedResult<SimulationDownload>;
    const versions = byVersion.results.map((d) => d.version);
    assert.ok(versions.indexOf(newer.version) < versions.indexOf(older.version), versions.join());
    const filtered = (await get(orgAdmin.sub, `${downloadUrl(radiography)}?filter=2.10`))
      .body as PagedResult<SimulationDownload>;
    assert.deepEqual(
      filtered.results.map((d) => d.id),
      [newer.id],
    );
    const bad = await get(orgAdmin.sub, `${downloadUrl(radiography)}?ordering=fileUrl`);
    assert.equal(bad.status, 400);
    assert.ok((bad.body as Record<string, string[]>).ordering);
    const page = await get(orgAdmin.sub, `${downloadUrl(radiography)}?page=99`);
    assert.equal(page.status, 404);
  });

  test('creates a version with its installer: 201, active by default, file saved, audited', async () => {
    const file = await uploadedInstaller(t, ZIP_BYTES, 'Radiography Setup.zip');
    const body = valid({ fileId: file.id });
    const res = await saveDownload(t, sysAdmin.sub, radiography, body);
    assert.equal(res.statusCode, 201, res.body);
    const created = res.json<SimulationDownload>();
    assert.deepEqual(
      { ...created, id: 0 },
      {
        id: 0,
        product: radiography,
        version: body.version,
        operatingSystem: 'windows',
        isActive: true,
        fileUrl: body.fileUrl,
        file: {
          id: file.id,
          originalName: 'Radiography Setup.zip',
          size: ZIP_BYTES.length,
          state: 'saved',
        },
        fileId: file.id,
      },
    );
    const again = await get(orgAdmin.sub, downloadUrl(radiography, created.id));
    assert.deepEqual(again.body, created);

    const audit = await t.app.inject({
      url: '/api/v1/audit?entityType=simulation_download',
      headers: await authHeader(sysAdmin.sub),
    });
    const entry = audit
      .json<PagedResult<AuditEntry>>()
      .results.find((e) => e.entityId === String(created.id));
    assert.ok(entry, audit.body);
    assert.equal(entry.action, 'create');
    assert.equal(entry.actorId, sysAdmin.sub);
    assert.equal(entry.organisation, null);
    assert.deepEqual(entry.after, created);
  });

  test('a version is unique per product and operating system (400 on version)', async () => {
    const version = freshVersion();
    assert.equal(
      (await saveDownload(t, sysAdmin.sub, radiography, valid({ version }))).statusCode,
      201,
    );
    const twice = await saveDownload(t, sysAdmin.sub, radiography, valid({ version }));
    assert.equal(twice.statusCode, 400);
    assert.deepEqual(twice.json(), {
      version: [`Version ${version} for windows already exists for this product.`],
    });
    // The same number for the other system, or another product, is another version.
    const mac = await saveDownload(
      t,
      sysAdmin.sub,
      radiography,
      valid({ version, operatingSystem: 'mac' }),
    );
    assert.equal(mac.statusCode, 201, mac.body);
    assert.equal(
      (await saveDownload(t, sysAdmin.sub, birthing, valid({ version }))).statusCode,
      201,
    );
    // Editing into another version's number is refused the same way; keeping one's own is fine.
    const edited = await saveDownload(
      t,
      sysAdmin.sub,
      radiography,
      valid({ version, operatingSystem: 'windows' }),
      mac.json<SimulationDownload>().id,
    );
    assert.equal(edited.statusCode, 400);
    assert.ok(edited.json<Record<string, string[]>>().version);
    const same = await saveDownload(
      t,
      sysAdmin.sub,
      radiography,
      valid({ version, operatingSystem: 'mac', isActive: false }),
      mac.json<SimulationDownload>().id,
    );
    assert.equal(same.statusCode, 200, same.body);
  });

  test('the version must be major.minor.patch', async () => {
    for (const version of [
      '3.0',
      '3.0.0.1',
      '03.0.0',
      'a.b.c',
      '',
      '3.0.0 ',
      '-1.0.0',
      '10000.0.0',
    ]) {
      const res = await saveDownload(t, sysAdmin.sub, radiography, valid({ version }));
      assert.equal(res.statusCode, 400, version);
      assert.ok(res.json<Record<string, string[]>>().version, `${version}: ${res.body}`);
    }
  });

  test('fileUrl must be an https address: http:, javascript: and the like are 400', async () => {
    for (const fileUrl of [
      'http://downloads.example.test/setup.exe',
      'javascript:alert(1)',
      'JAVASCRIPT:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'ftp://downloads.example.test/setup.exe',
      '//downloads.example.test/setup.exe',
      '/relative/setup.exe',
      'https://user:secret@downloads.example.test/setup.exe',
      ' https://downloads.example.test/setup.exe',
      'https://',
      '',
    ]) {
      const res = await saveDownload(t, sysAdmin.sub, radiography, valid({ fileUrl }));
      assert.equal(res.statusCode, 400, fileUrl);
      assert.deepEqual(Object.keys(res.json()), ['fileUrl'], `${fileUrl}: ${res.body}`);
    }
  });

  test('operatingSystem is windows or mac', async () => {
    for (const operatingSystem of ['linux', 'Windows', '', null]) {
      const res = await saveDownload(t, sysAdmin.sub, radiography, valid({ operatingSystem }));
      assert.equal(res.statusCode, 400, String(operatingSystem));
      assert.ok(res.json<Record<string, string[]>>().operatingSystem, res.body);
    }
  });

  test('one 400 names every invalid field: a bad operatingSystem hides neither version nor fileUrl', async () => {
    const res = await saveDownload(
      t,
      sysAdmin.sub,
      radiography,
      valid({ version: '3.0', operatingSystem: 'linux', fileUrl: 'http://example.test/a.exe' }),
    );
    assert.equal(res.statusCode, 400, res.body);
    assert.deepEqual(res.json(), {
      version: ['Enter the version as major.minor.patch, e.g. 3.0.0.'],
      operatingSystem: ['must be one of: "windows", "mac"'],
      fileUrl: ['Enter an https:// address.'],
    });
  });

  test('the installer must be an installer upload of the caller’s (400 on file)', async () => {
    const csv = randomUUID();
    await t.db.query(
      `insert into files (id, kind, original_name, mime_type, size, storage_key, state, owner_id)
       values ($1, 'user', 'users.csv', 'text/csv', 1, $2, 'uploaded', $3)`,
      [csv, `user/${csv}.csv`, sysAdmin.sub],
    );
    const someoneElses = randomUUID();
    await t.db.query(
      `insert into files (id, kind, original_name, mime_type, size, storage_key, state, owner_id)
       values ($1, 'sim-installation-file', 'x.zip', 'application/zip', 1, $2, 'uploaded', $3)`,
      [someoneElses, `sim-installation-file/${someoneElses}.zip`, orgAdmin.sub],
    );
    // Saved with a Radiography version, so not to be taken over by another product's form.
    const file = await uploadedInstaller(t);
    await createdDownload(t, radiography, { fileId: file.id });
    for (const fileId of [randomUUID(), csv, someoneElses]) {
      const res = await saveDownload(t, sysAdmin.sub, radiography, valid({ fileId }));
      assert.equal(res.statusCode, 400, fileId);
      assert.deepEqual(Object.keys(res.json()), ['file'], res.body);
    }
    const otherProduct = await saveDownload(t, sysAdmin.sub, birthing, valid({ fileId: file.id }));
    assert.equal(otherProduct.statusCode, 400, otherProduct.body);
    // The same product may offer the archive again, and a form may be saved without a file.
    const reused = await saveDownload(t, sysAdmin.sub, radiography, valid({ fileId: file.id }));
    assert.equal(reused.statusCode, 201, reused.body);
    const none = await saveDownload(t, sysAdmin.sub, radiography, valid({ fileId: null }));
    assert.equal(none.statusCode, 201, none.body);
    assert.equal(none.json<SimulationDownload>().file, null);
  });

  test('PUT changes a version; another product’s id or an unknown one is 404', async () => {
    const created = await createdDownload(t, radiography);
    const res = await saveDownload(
      t,
      sysAdmin.sub,
      radiography,
      valid({ version: created.version, operatingSystem: 'mac', isActive: false }),
      created.id,
    );
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json<SimulationDownload>().isActive, false);
    assert.equal(res.json<SimulationDownload>().operatingSystem, 'mac');
    const entries = await t.db.query<{ before: SimulationDownload; after: SimulationDownload }>(
      `select before, after from audit_log
        where entity_type = 'simulation_download' and entity_id = $1 and action = 'update'`,
      [String(created.id)],
    );
    assert.equal(entries.rows.length, 1);
    assert.equal(entries.rows[0]!.before.isActive, true);
    assert.equal(entries.rows[0]!.after.isActive, false);
    for (const url of [
      downloadUrl(birthing, created.id),
      downloadUrl(radiography, 2_000_000_000),
    ]) {
      const put = await t.app.inject({
        method: 'PUT',
        url,
        headers: await headers(sysAdmin.sub),
        payload: valid(),
      });
      assert.equal(put.statusCode, 404, url);
      assert.equal((await get(sysAdmin.sub, url)).status, 404, url);
    }
    assert.equal((await get(sysAdmin.sub, downloadUrl(2_000_000_000))).status, 404);
  });

  test('organisation administrators read the versions of licensed products and change none', async () => {
    const created = await createdDownload(t, radiography);
    const before = await t.db.query('select count(*)::int as n from simulation_downloads');
    const post = await saveDownload(t, orgAdmin.sub, radiography, valid());
    assert.equal(post.statusCode, 403);
    const put = await saveDownload(
      t,
      orgAdmin.sub,
      radiography,
      valid({ isActive: false }),
      created.id,
    );
    assert.equal(put.statusCode, 403);
    assert.deepEqual(
      (await t.db.query('select count(*)::int as n from simulation_downloads')).rows,
      before.rows,
    );
    assert.equal((await get(orgAdmin.sub, downloadUrl(radiography, created.id))).status, 200);
    // Other College is licensed for Radiography only.
    const other = await otherOrgAdmin(t.db);
    assert.equal((await get(other.sub, downloadUrl(radiography))).status, 200);
    assert.equal((await get(other.sub, downloadUrl(birthing))).status, 404);
    // Learners hold no user permission at all.
    assert.equal((await get(learner.sub, downloadUrl(radiography))).status, 403);
  });

  test('learners’ downloads page shows a new active version, serves its bytes, and drops it when deactivated', async () => {
    const bytes = Buffer.concat([ZIP_BYTES, Buffer.from('radiography 3.0.0')]);
    const file = await uploadedInstaller(t, bytes, 'radiography-3.0.0-windows.zip');
    const version = '3.0.0';
    const created = await createdDownload(t, radiography, { version, fileId: file.id });
    const page = async (sub: string) =>
      (
        await t.app.inject({
          url: `/api/v1/user/${sub}/simulation-download`,
          headers: await authHeader(sub),
        })
      ).json<DownloadGroup[]>();
    const radiographyGroup = (groups: DownloadGroup[]) => groups.find((g) => g.id === radiography);

    const shown = radiographyGroup(await page(learner.sub))!.downloads;
    assert.deepEqual(
      shown.find((d) => d.id === created.id),
      {
        id: created.id,
        version,
        operatingSystem: 'windows',
        fileId: file.id,
        fileUrl: created.fileUrl,
      },
    );
    const link = await t.app.inject({
      url: `/api/v1/file/${file.id}/download/sim-installation-file`,
      headers: await authHeader(learner.sub),
    });
    assert.equal(link.statusCode, 200, link.body);
    const { url, originalName } = link.json<FileDownload>();
    assert.equal(originalName, 'radiography-3.0.0-windows.zip');
    const fetched = await t.app.inject({ url });
    assert.equal(fetched.statusCode, 200);
    assert.ok(fetched.rawPayload.equals(bytes), 'the learner downloads the bytes uploaded');

    // A version of a product another organisation is not licensed for never shows there.
    const birthingVersion = await createdDownload(t, birthing);
    assert.ok(!(await page(otherLearner.sub)).some((g) => g.id === birthing));
    assert.ok(
      (await page(learner.sub))
        .find((g) => g.id === birthing)!
        .downloads.some((d) => d.id === birthingVersion.id),
    );

    const off = await saveDownload(
      t,
      sysAdmin.sub,
      radiography,
      {
        version,
        operatingSystem: 'windows',
        fileUrl: created.fileUrl,
        fileId: file.id,
        isActive: false,
      },
      created.id,
    );
    assert.equal(off.statusCode, 200, off.body);
    assert.ok(
      !radiographyGroup(await page(learner.sub))!.downloads.some((d) => d.id === created.id),
    );
    const gone = await t.app.inject({
      url: `/api/v1/file/${file.id}/download/sim-installation-file`,
      headers: await authHeader(learner.sub),
    });
    assert.equal(gone.statusCode, 404, 'a withdrawn installer is no longer offered');
  });
});

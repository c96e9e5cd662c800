import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { PERMISSION_DENIED, type FileDownload } from '@portal/contract';
import { account, authHeader, buildTestApp, type TestApp } from '../../../../helper';

describe('GET /api/v1/file/:id/download/:kind', () => {
  let t: TestApp;
  const learner = account('learner', 'Demo Hospital');
  const orgadmin = account('org admin', 'Demo Hospital');
  const sysadmin = account('sys admin');
  const otherLearner = account('learner', 'Other College');

  const download = async (sub: string, id: string, kind: string) => {
    const res = await t.app.inject({
      url: `/api/v1/file/${id}/download/${kind}`,
      headers: await authHeader(sub),
    });
    return { status: res.statusCode, body: res.json<FileDownload>() };
  };
  const installer = async (code: string, version: string, os: string) =>
    (
      await t.db.query<{ file_id: string }>(
        `select d.file_id from simulation_downloads d join products p on p.id = d.product_id
          where p.code = $1 and d.version = $2 and d.operating_system = $3`,
        [code, version, os],
      )
    ).rows[0]!.file_id;
  /** An administrator's upload of `kind` (their upload routes arrive with a later issue). */
  const upload = async (kind: string, name: string, state = 'saved') => {
    const id = randomUUID();
    const key = `${kind}/${id}/${name}`;
    await t.app.storage.put(key, Buffer.from(`${kind} content`));
    await t.db.query(
      `insert into files (id, kind, original_name, mime_type, size, storage_key, state, owner_id)
       values ($1, $2, $3, 'application/json', 10, $4, $5, $6)`,
      [id, kind, name, key, state, orgadmin.sub],
    );
    return id;
  };

  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  test('an entitled learner downloads an installer under its original name', async () => {
    const id = await installer('birthing', '2.4.1', 'mac');
    const { status, body } = await download(learner.sub, id, 'sim-installation-file');
    assert.equal(status, 200);
    assert.equal(body.originalName, 'birthing-2.4.1-mac.zip');
    const file = await t.app.inject({ url: body.url });
    assert.equal(file.statusCode, 200);
    assert.equal(file.headers['content-type'], 'application/zip');
    assert.equal(
      file.headers['content-disposition'],
      `attachment; filename*=UTF-8''birthing-2.4.1-mac.zip`,
    );
    // A real (stored) ZIP archive: local file header signature "PK\x03\x04".
    assert.equal(file.rawPayload.readUInt32LE(0), 0x04034b50);
    assert.ok(file.rawPayload.includes(Buffer.from('Birthing 2.4.1 for macOS')));
  });

  test('installers of products the user is not entitled to, or withdrawn versions, are not found', async () => {
    const birthing = await installer('birthing', '2.4.1', 'windows');
    assert.equal((await download(otherLearner.sub, birthing, 'sim-installation-file')).status, 404);
    const radiography = await installer('radiography', '2.4.1', 'windows');
    assert.equal(
      (await download(otherLearner.sub, radiography, 'sim-installation-file')).status,
      200,
    );
    const withdrawn = await installer('radiography', '2.3.0', 'windows');
    assert.equal((await download(learner.sub, withdrawn, 'sim-installation-file')).status, 404);
    // Administrators managing downloads fetch any version.
    assert.equal((await download(sysadmin.sub, withdrawn, 'sim-installation-file')).status, 200);
  });

  test('a file asked for under another kind, or an unknown file, is not found', async () => {
    const id = await installer('radiography', '2.4.1', 'mac');
    assert.equal((await download(sysadmin.sub, id, 'sim-config')).status, 404);
    const config = await upload('sim-config', 'knee.json');
    assert.equal((await download(sysadmin.sub, config, 'sim-installation-file')).status, 404);
    assert.equal((await download(sysadmin.sub, randomUUID(), 'sim-config')).status, 404);
    const badKind = await download(sysadmin.sub, id, 'evidence-image');
    assert.equal(badKind.status, 400);
    assert.equal((await download(sysadmin.sub, 'nope', 'sim-config')).status, 400);
  });

  test('configuration files are for those who manage simulation configurations', async () => {
    const config = await upload('sim-config', 'knee.json');
    const translation = await upload('sim-config-translation', 'knee.de.json');
    for (const sub of [learner.sub, orgadmin.sub]) {
      const refused = await download(sub, config, 'sim-config');
      assert.deepEqual(refused, { status: 403, body: { detail: PERMISSION_DENIED } });
      assert.equal((await download(sub, translation, 'sim-config-translation')).status, 403);
    }
    const ok = await download(sysadmin.sub, config, 'sim-config');
    assert.equal(ok.status, 200);
    assert.equal(ok.body.originalName, 'knee.json');
    const served = await t.app.inject({ url: ok.body.url });
    assert.equal(served.body, 'sim-config content');
    assert.equal((await download(sysadmin.sub, translation, 'sim-config-translation')).status, 200);
  });

  test('user lists are for those who create users; unfinished uploads are not served', async () => {
    const csv = await upload('user', 'users.csv');
    assert.equal((await download(learner.sub, csv, 'user')).status, 403);
    assert.equal((await download(orgadmin.sub, csv, 'user')).status, 200);
    const unfinished = await upload('user', 'partial.csv', 'uploading');
    assert.equal((await download(orgadmin.sub, unfinished, 'user')).status, 404);
  });

  test("a user list is its organisation's: other organisations' administrators do not find it", async () => {
    const csv = await upload('user', 'users.csv');
    const otherAdmin = randomUUID();
    await t.db.query(
      `insert into users (id, email, first_name, last_name, organisation_id, role_id)
       values ($1, 'admin@other.test', 'Oda', 'Admin',
               (select id from organisations where name = 'Other College'),
               (select id from roles where name = 'org admin'))`,
      [otherAdmin],
    );
    assert.equal((await download(otherAdmin, csv, 'user')).status, 404);
    assert.equal((await download(sysadmin.sub, csv, 'user')).status, 200);
  });
});

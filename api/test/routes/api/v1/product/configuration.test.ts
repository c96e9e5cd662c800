import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type {
  AuditEntry,
  LookupItem,
  PagedResult,
  ProductConfiguration,
  UploadedFile,
} from '@portal/contract';
import { INVALID_PAGE } from '@portal/contract';
import { schemaErrors } from '../../../../../src/lib/configuration-files';
import { CONFIGURATION_MESSAGES } from '../../../../../src/routes/api/v1/product/configuration';
import { buildTestApp, type TestApp } from '../../../../helper';
import {
  configurationBody,
  createConfiguration,
  headers,
  learner,
  orgAdmin,
  practiceViewCategoryOf,
  productIdOf,
  RADIOGRAPHY_CONFIG,
  sysAdmin,
  TRANSLATION,
  uploadedFile,
  uploadFile,
} from './configuration-fixtures';

let t: TestApp;
let radiography: number;
let birthing: number;

before(async () => {
  t = await buildTestApp();
  radiography = await productIdOf(t.db, 'radiography');
  birthing = await productIdOf(t.db, 'birthing');
});
after(() => t.close());

const call = async (
  method: 'GET' | 'POST' | 'PUT',
  url: string,
  payload?: unknown,
  as = sysAdmin,
) =>
  t.app.inject({
    method,
    url,
    headers: await headers(as.sub),
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
const listUrl = (product: number, query = '') => `/api/v1/product/${product}/configuration${query}`;
const oneUrl = (product: number, id: number) => `/api/v1/product/${product}/configuration/${id}`;

async function fileState(id: string): Promise<string | undefined> {
  const res = await t.db.query<{ state: string }>('select state from files where id = $1', [id]);
  return res.rows[0]?.state;
}

async function counts() {
  const res = await t.db.query<{ configurations: number; audit: number; saved: number }>(
    `select (select count(*)::int from product_configurations) as configurations,
            (select count(*)::int from audit_log) as audit,
            (select count(*)::int from files where state = 'saved') as saved`,
  );
  return res.rows[0]!;
}

async function auditOf(id: number | string): Promise<AuditEntry[]> {
  const res = await call(
    'GET',
    `/api/v1/audit?entityType=product_configuration&ordering=at&pageSize=100&filter=${id}`,
  );
  assert.equal(res.statusCode, 200, res.body);
  return res.json<PagedResult<AuditEntry>>().results.filter((e) => e.entityId === String(id));
}

describe('the seeded configurations', () => {
  test('every catalogue leaf starts a configuration record named by its key', async () => {
    const res = await t.db.query<{ key: string; name: string | null }>(
      `select c.simulation_configuration as key, pc.configuration_name as name
         from product_categories c left join product_configurations pc on pc.id = c.configuration_id
        where c.simulation_configuration is not null`,
    );
    assert.ok(res.rows.length >= 20);
    for (const row of res.rows) assert.equal(row.name, row.key);
  });

  test("every seeded config file is stored and matches its product's schema", async () => {
    const res = await t.db.query<{
      storage_key: string;
      schema: Record<string, unknown>;
      state: string;
    }>(
      `select f.storage_key, p.configuration_schema as schema, f.state
         from product_configurations pc join products p on p.id = pc.product_id
         join files f on f.id = pc.config_file_id`,
    );
    assert.ok(res.rows.length >= 20);
    for (const row of res.rows) {
      assert.equal(row.state, 'saved');
      const opened = await t.app.storage.open(row.storage_key);
      assert.ok(opened, row.storage_key);
      const chunks: Buffer[] = [];
      for await (const chunk of opened.stream) chunks.push(chunk as Buffer);
      const value: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      assert.deepEqual(schemaErrors(row.schema, value), [], row.storage_key);
    }
  });

  test('a restart seeds nothing twice', async () => {
    const { seedDemoConfigurations } = await import('../../../../../src/demo/configurations');
    const before = await counts();
    assert.equal(await seedDemoConfigurations(t.db, t.app.storage), 0);
    assert.deepEqual(await counts(), before);
  });
});

describe('GET /api/v1/product/:id/configuration', () => {
  test("pages the product's configurations by name, with filter and ordering", async () => {
    const res = await call('GET', listUrl(radiography));
    assert.equal(res.statusCode, 200, res.body);
    const page = res.json<PagedResult<ProductConfiguration>>();
    assert.equal(page.count, 14);
    assert.equal(page.totalPages, 1);
    const names = page.results.map((c) => c.configurationName);
    assert.deepEqual(names, [...names].sort());
    assert.ok(page.results.every((c) => c.product === radiography));
    const knee = page.results.find((c) => c.configurationName === 'radiography.lower-limb.knee');
    assert.ok(knee);
    assert.equal(knee.isSelfAssessment, true);
    assert.equal(knee.configFile.state, 'saved');
    assert.equal(knee.translationFile?.state, 'saved');
    assert.equal(
      knee.practiceViewCategory,
      await practiceViewCategoryOf(t.db, 'radiography', 'lower-limb'),
    );

    const filtered = (await call('GET', listUrl(radiography, '?filter=UPPER-limb'))).json<
      PagedResult<ProductConfiguration>
    >();
    assert.equal(filtered.count, 4);
    const byId = (await call('GET', listUrl(radiography, '?ordering=-id&pageSize=3'))).json<
      PagedResult<ProductConfiguration>
    >();
    assert.equal(byId.totalPages, 5);
    assert.ok(byId.results[0]!.id > byId.results[2]!.id);
  });

  test('a bad ordering is a 400, a page past the last the Invalid page 404', async () => {
    const bad = await call('GET', listUrl(radiography, '?ordering=secret'));
    assert.equal(bad.statusCode, 400);
    assert.ok(bad.json<Record<string, string[]>>().ordering);
    const past = await call('GET', listUrl(radiography, '?page=2'));
    assert.equal(past.statusCode, 404);
    assert.deepEqual(past.json(), { detail: INVALID_PAGE });
  });

  test('learners and organisation administrators are refused; an unknown product is 404', async () => {
    assert.equal((await call('GET', listUrl(radiography), undefined, learner)).statusCode, 403);
    assert.equal((await call('GET', listUrl(radiography), undefined, orgAdmin)).statusCode, 403);
    assert.equal((await call('GET', listUrl(999_999))).statusCode, 404);
  });
});

describe('POST /api/v1/product/:id/configuration', () => {
  test('creates from uploads: files saved, isSelfAssessment true by default, audited', async () => {
    const body = await configurationBody(t);
    delete body.isSelfAssessment;
    assert.equal(await fileState(body.configFile as string), 'uploaded');
    const res = await call('POST', listUrl(radiography), body);
    assert.equal(res.statusCode, 201, res.body);
    const created = res.json<ProductConfiguration>();
    assert.equal(created.configurationName, body.configurationName);
    assert.equal(created.isSelfAssessment, true);
    assert.equal(created.product, radiography);
    assert.equal(created.configFile.id, body.configFile);
    assert.equal(created.configFile.originalName, 'sim-config.json');
    assert.equal(created.configFile.state, 'saved');
    assert.equal(created.translationFile?.state, 'saved');
    assert.equal(await fileState(body.configFile as string), 'saved');
    assert.equal(await fileState(body.translationFile as string), 'saved');

    const read = await call('GET', oneUrl(radiography, created.id));
    assert.equal(read.statusCode, 200);
    assert.deepEqual(read.json(), created);

    const [entry, ...more] = await auditOf(created.id);
    assert.equal(more.length, 0);
    assert.equal(entry?.action, 'create');
    assert.equal(entry?.actorEmail, sysAdmin.email);
    assert.equal(entry?.organisation, null);
    assert.equal(entry?.before, null);
    assert.deepEqual(entry?.after, created);
  });

  test("a saved configuration's files download with their bytes, for managers only", async () => {
    const created = await createConfiguration(t, radiography);
    const res = await call('GET', `/api/v1/file/${created.configFile.id}/download/sim-config`);
    assert.equal(res.statusCode, 200, res.body);
    const { url, originalName } = res.json<{ url: string; originalName: string }>();
    assert.equal(originalName, 'sim-config.json');
    const bytes = await t.app.inject({ url });
    assert.equal(bytes.statusCode, 200);
    assert.deepEqual(JSON.parse(bytes.body), RADIOGRAPHY_CONFIG);
    const translation = `/api/v1/file/${created.translationFile!.id}/download/sim-config-translation`;
    assert.equal((await call('GET', translation)).statusCode, 200);
    assert.equal((await call('GET', translation, undefined, orgAdmin)).statusCode, 403);
    // Asked for under the other kind, the file does not exist.
    const wrongKind = `/api/v1/file/${created.configFile.id}/download/sim-config-translation`;
    assert.equal((await call('GET', wrongKind)).statusCode, 404);
  });

  test('a translation file is optional; isSelfAssessment false is kept', async () => {
    const body = await configurationBody(t, { translationFile: null, isSelfAssessment: false });
    const created = await createConfiguration(t, radiography, body);
    assert.equal(created.translationFile, null);
    assert.equal(created.isSelfAssessment, false);
  });

  test("a config file against the product's schema: 400 naming each JSON path, nothing saved", async () => {
    const configFile = await uploadedFile(t, 'sim-config', {
      examination: 'knee',
      exposure: { kv: 'sixty', mAs: 4 },
    });
    const body = await configurationBody(t, { configFile });
    const before = await counts();
    const res = await call('POST', listUrl(radiography), body);
    assert.equal(res.statusCode, 400, res.body);
    const errors = res.json<Record<string, string[]>>();
    assert.deepEqual(Object.keys(errors), ['configFile']);
    assert.ok(errors.configFile!.includes('/exposure/kv: must be number'), res.body);
    assert.ok(errors.configFile!.includes("/: must have required property 'bodyArea'"), res.body);
    assert.deepEqual(await counts(), before);
    assert.equal(await fileState(configFile), 'uploaded');
  });

  test('the same file is checked against each product: Birthing has another schema', async () => {
    const body = await configurationBody(t, {
      practiceViewCategory: await practiceViewCategoryOf(t.db, 'birthing'),
    });
    const res = await call('POST', listUrl(birthing), body);
    assert.equal(res.statusCode, 400, res.body);
    assert.deepEqual(res.json(), {
      configFile: ["/: must have required property 'position'"],
    });
  });

  test('missing fields and wrong types are 400 per field', async () => {
    const res = await call('POST', listUrl(radiography), { isSelfAssessment: 'yes' });
    assert.equal(res.statusCode, 400);
    const errors = res.json<Record<string, string[]>>();
    for (const field of ['configurationName', 'practiceViewCategory', 'configFile']) {
      assert.ok(errors[field], `${field} in ${res.body}`);
    }
    const blank = await call(
      'POST',
      listUrl(radiography),
      await configurationBody(t, {
        configurationName: '   ',
      }),
    );
    assert.equal(blank.statusCode, 400);
    assert.ok(blank.json<Record<string, string[]>>().configurationName);
  });

  test("a name taken in the product (any case), another product's category, unknown and reused files", async () => {
    const existing = await createConfiguration(t, radiography);
    const body = await configurationBody(t, {
      configurationName: existing.configurationName.toUpperCase(),
      practiceViewCategory: await practiceViewCategoryOf(t.db, 'birthing'),
      configFile: existing.configFile.id,
      translationFile: '00000000-0000-4000-8000-000000000000',
    });
    const before = await counts();
    const res = await call('POST', listUrl(radiography), body);
    assert.equal(res.statusCode, 400, res.body);
    assert.deepEqual(res.json(), {
      configurationName: [CONFIGURATION_MESSAGES.nameTaken],
      practiceViewCategory: [CONFIGURATION_MESSAGES.practiceViewCategory],
      configFile: [CONFIGURATION_MESSAGES.fileTaken],
      translationFile: [CONFIGURATION_MESSAGES.fileMissing],
    });
    assert.deepEqual(await counts(), before);

    // A file of the other kind is no config file; the same name in another product is fine.
    const translation = await uploadedFile(t, 'sim-config-translation', TRANSLATION);
    const wrongKind = await call(
      'POST',
      listUrl(radiography),
      await configurationBody(t, { configFile: translation }),
    );
    assert.deepEqual(wrongKind.json(), { configFile: [CONFIGURATION_MESSAGES.fileMissing] });
  });

  test('concurrent saves: one name, one file, one configuration each', async () => {
    const name = `Race ${Date.now()}`;
    const sameName = await Promise.all(
      Array.from({ length: 4 }, async () =>
        call('POST', listUrl(radiography), await configurationBody(t, { configurationName: name })),
      ),
    );
    assert.deepEqual(sameName.map((r) => r.statusCode).sort(), [201, 400, 400, 400]);
    for (const r of sameName.filter((r) => r.statusCode === 400)) {
      assert.deepEqual(r.json(), { configurationName: [CONFIGURATION_MESSAGES.nameTaken] });
    }
    const shared = await configurationBody(t);
    const sameFiles = await Promise.all(
      ['A', 'B', 'C', 'D'].map((suffix) =>
        call('POST', listUrl(radiography), {
          ...shared,
          configurationName: `${shared.configurationName as string} ${suffix}`,
        }),
      ),
    );
    assert.deepEqual(sameFiles.map((r) => r.statusCode).sort(), [201, 400, 400, 400]);
    for (const r of sameFiles.filter((r) => r.statusCode === 400)) {
      assert.deepEqual(r.json(), {
        configFile: [CONFIGURATION_MESSAGES.fileTaken],
        translationFile: [CONFIGURATION_MESSAGES.fileTaken],
      });
    }
  });

  test('refused for learners, organisation administrators and an unknown product', async () => {
    const body = await configurationBody(t);
    assert.equal((await call('POST', listUrl(radiography), body, learner)).statusCode, 403);
    assert.equal((await call('POST', listUrl(radiography), body, orgAdmin)).statusCode, 403);
    assert.equal((await call('POST', listUrl(999_999), body)).statusCode, 404);
    assert.equal(await fileState(body.configFile as string), 'uploaded');
  });
});

describe('GET and PUT /api/v1/product/:id/configuration/:configurationId', () => {
  test("another product's configuration and an unknown one are 404", async () => {
    const created = await createConfiguration(t, radiography);
    assert.equal((await call('GET', oneUrl(birthing, created.id))).statusCode, 404);
    assert.equal((await call('GET', oneUrl(radiography, 999_999))).statusCode, 404);
    const put = await call('PUT', oneUrl(birthing, created.id), await configurationBody(t));
    assert.equal(put.statusCode, 404);
    assert.equal(
      (await call('GET', oneUrl(radiography, created.id), undefined, orgAdmin)).statusCode,
      403,
    );
  });

  test('renames and keeps its files, or takes new ones (checked); audited with before and after', async () => {
    const created = await createConfiguration(t, radiography);
    const renamed = await call('PUT', oneUrl(radiography, created.id), {
      configurationName: `${created.configurationName} v2`,
      practiceViewCategory: await practiceViewCategoryOf(t.db, 'radiography', 'torso'),
      configFile: created.configFile.id,
      translationFile: created.translationFile!.id,
      isSelfAssessment: false,
    });
    assert.equal(renamed.statusCode, 200, renamed.body);
    const after = renamed.json<ProductConfiguration>();
    assert.equal(after.configurationName, `${created.configurationName} v2`);
    assert.equal(after.isSelfAssessment, false);
    assert.deepEqual(after.configFile, created.configFile);

    const bad = await uploadedFile(t, 'sim-config', {
      ...RADIOGRAPHY_CONFIG,
      exposure: { kv: 10, mAs: 4 },
    });
    const refused = await call('PUT', oneUrl(radiography, created.id), {
      configurationName: 'x',
      practiceViewCategory: after.practiceViewCategory,
      configFile: bad,
    });
    assert.equal(refused.statusCode, 400);
    assert.deepEqual(refused.json(), { configFile: ['/exposure/kv: must be >= 40'] });

    const fresh = await uploadedFile(t, 'sim-config', RADIOGRAPHY_CONFIG);
    const replaced = await call('PUT', oneUrl(radiography, created.id), {
      configurationName: after.configurationName,
      practiceViewCategory: after.practiceViewCategory,
      configFile: fresh,
    });
    assert.equal(replaced.statusCode, 200, replaced.body);
    const final = replaced.json<ProductConfiguration>();
    assert.equal(final.configFile.id, fresh);
    assert.equal(final.configFile.state, 'saved');
    assert.equal(final.translationFile, null, 'PUT replaces: no translation file sent, none kept');
    assert.equal(
      final.isSelfAssessment,
      true,
      'PUT replaces: isSelfAssessment back to its default',
    );

    const entries = await auditOf(created.id);
    assert.deepEqual(
      entries.map((e) => e.action),
      ['create', 'update', 'update'],
    );
    assert.deepEqual(entries[1]?.before, created);
    assert.deepEqual(entries[1]?.after, after);
    assert.deepEqual(entries[2]?.after, final);
  });
});

describe('POST /api/v1/file/upload/sim-config and sim-config-translation', () => {
  test('store JSON files as uploaded, audited as files', async () => {
    const res = await uploadFile(t, 'sim-config', RADIOGRAPHY_CONFIG, { fileName: 'knee.json' });
    assert.equal(res.statusCode, 201, res.body);
    const file = res.json<UploadedFile>();
    assert.equal(file.state, 'uploaded');
    assert.equal(file.originalName, 'knee.json');
    assert.equal(file.size, JSON.stringify(RADIOGRAPHY_CONFIG).length);
    const audit = await t.db.query<{ action: string; entity_type: string }>(
      'select action, entity_type from audit_log where entity_id = $1',
      [file.id],
    );
    assert.deepEqual(audit.rows, [{ action: 'create', entity_type: 'file' }]);
    const translation = await uploadFile(t, 'sim-config-translation', {
      de: { title: 'Knie', steps: { first: 'Lagern' } },
      en: 'Knee',
    });
    assert.equal(translation.statusCode, 201, translation.body);
  });

  test('a file that is not JSON, or not an object, is refused', async () => {
    const broken = await uploadFile(t, 'sim-config', '{"exposure": {', { raw: true });
    assert.equal(broken.statusCode, 400);
    assert.match(broken.json<{ file: string[] }>().file[0]!, /^The file is not valid JSON\./);
    const list = await uploadFile(t, 'sim-config', [1, 2]);
    assert.deepEqual(list.json(), { file: ['The file must hold a JSON object.'] });
    const binary = await uploadFile(t, 'sim-config', Buffer.from([0xff, 0xfe, 0x00, 0x7b]), {
      raw: true,
    });
    assert.deepEqual(binary.json(), { file: ['The file must be UTF-8 text.'] });
    const empty = await uploadFile(t, 'sim-config-translation', '', { raw: true });
    assert.deepEqual(empty.json(), { file: ['The submitted file is empty.'] });
  });

  test('a translation file with values other than strings names each path', async () => {
    const res = await uploadFile(t, 'sim-config-translation', {
      de: { title: 'Knie', count: 3, tags: ['a'] },
      'a/b': null,
    });
    assert.equal(res.statusCode, 400);
    const errors = res.json<{ file: string[] }>().file.sort();
    assert.deepEqual(errors, [
      '/a~1b: must be a string or an object of strings',
      '/de/count: must be a string or an object of strings',
      '/de/tags: must be a string or an object of strings',
    ]);
  });

  test('file rules: extension, type and name; only configuration managers may upload', async () => {
    const csv = await uploadFile(t, 'sim-config', RADIOGRAPHY_CONFIG, { fileName: 'config.csv' });
    assert.deepEqual(csv.json(), {
      file: ['File extension is not valid. Allowed extensions are: json.'],
    });
    const html = await uploadFile(t, 'sim-config', RADIOGRAPHY_CONFIG, { type: 'text/html' });
    assert.deepEqual(html.json(), {
      file: ['Invalid file type. Allowed types are: application/json.'],
    });
    const name = await uploadFile(t, 'sim-config', RADIOGRAPHY_CONFIG, { fileName: 'a<b>.json' });
    assert.deepEqual(name.json(), { file: ['File name is invalid.'] });
    for (const as of [learner, orgAdmin]) {
      for (const kind of ['sim-config', 'sim-config-translation'] as const) {
        assert.equal((await uploadFile(t, kind, TRANSLATION, { as })).statusCode, 403);
      }
    }
  });
});

describe('GET /api/v1/lookup?field=practice_view_category', () => {
  const lookup = async (query: string, as = sysAdmin) =>
    t.app.inject({
      url: `/api/v1/lookup?field=practice_view_category${query}`,
      headers: await headers(as.sub),
    });

  test("answers the product's own categories from the database", async () => {
    const res = await lookup(`&product_id=${radiography}`);
    assert.equal(res.statusCode, 200, res.body);
    const items = res.json<LookupItem[]>();
    assert.deepEqual(
      items.map((i) => [i.code, i.name]),
      [
        ['lower-limb', 'Lower limb'],
        ['upper-limb', 'Upper limb'],
        ['skull', 'Skull'],
        ['torso', 'Torso'],
      ],
    );
    const birthingItems = (await lookup(`&product_id=${birthing}`)).json<LookupItem[]>();
    assert.deepEqual(
      birthingItems.map((i) => i.code),
      ['positions'],
    );
    assert.ok(!items.some((i) => birthingItems.some((b) => b.id === i.id)));
  });

  test('product_id is required; an unknown product is 404', async () => {
    const missing = await lookup('');
    assert.equal(missing.statusCode, 400);
    assert.ok(missing.json<Record<string, string[]>>().product_id);
    assert.equal((await lookup('&product_id=999999')).statusCode, 404);
  });
});

describe('the launch resolves its configuration to a record', () => {
  const launch = async (product: number, payload: Record<string, unknown>) =>
    t.app.inject({
      method: 'POST',
      url: `/api/v1/product/${product}/session`,
      headers: await headers(learner.sub),
      payload: { mode: 'Desktop', ...payload },
    });
  const sessionRow = async (uuid: string) =>
    (
      await t.db.query<{ configuration_id: number | null; category_id: number | null }>(
        'select configuration_id, category_id from simulation_sessions where uuid = $1',
        [uuid],
      )
    ).rows[0]!;
  const seeded = async (key: string) =>
    (
      await t.db.query<{ id: number; leaf: number }>(
        `select pc.id, c.id as leaf from product_categories c
           join product_configurations pc on pc.id = c.configuration_id
          where c.simulation_configuration = $1`,
        [key],
      )
    ).rows[0]!;

  test('a seeded key starts its record, with the leaf as category', async () => {
    const knee = await seeded('radiography.lower-limb.knee');
    const res = await launch(radiography, { configuration: 'radiography.lower-limb.knee' });
    assert.equal(res.statusCode, 201, res.body);
    assert.deepEqual(await sessionRow(res.json<{ uuid: string }>().uuid), {
      configuration_id: knee.id,
      category_id: knee.leaf,
    });
  });

  test('after a rename both the new name and the catalogue key launch it', async () => {
    const ankle = await seeded('radiography.lower-limb.ankle');
    const current = (await call('GET', oneUrl(radiography, ankle.id))).json<ProductConfiguration>();
    const renamed = await call('PUT', oneUrl(radiography, ankle.id), {
      configurationName: 'Ankle AP and lateral',
      practiceViewCategory: current.practiceViewCategory,
      configFile: current.configFile.id,
      translationFile: current.translationFile?.id ?? null,
    });
    assert.equal(renamed.statusCode, 200, renamed.body);
    for (const configuration of ['Ankle AP and lateral', 'radiography.lower-limb.ankle']) {
      const res = await launch(radiography, { configuration, categoryId: ankle.leaf });
      assert.equal(res.statusCode, 201, res.body);
      assert.equal(
        (await sessionRow(res.json<{ uuid: string }>().uuid)).configuration_id,
        ankle.id,
      );
    }
  });

  test('a configuration made by an administrator launches by its name, without a category', async () => {
    const created = await createConfiguration(t, radiography);
    const res = await launch(radiography, { configuration: created.configurationName });
    assert.equal(res.statusCode, 201, res.body);
    assert.deepEqual(await sessionRow(res.json<{ uuid: string }>().uuid), {
      configuration_id: created.id,
      category_id: null,
    });
    const knee = await seeded('radiography.lower-limb.knee');
    const wrongLeaf = await launch(radiography, {
      configuration: created.configurationName,
      categoryId: knee.leaf,
    });
    assert.equal(wrongLeaf.statusCode, 400);
    assert.ok(wrongLeaf.json<Record<string, string[]>>().categoryId);
  });

  test("a name no record of the product has is refused, another product's too", async () => {
    for (const [product, configuration] of [
      [radiography, 'radiography.nowhere'],
      [radiography, 'birthing.kneeling'],
      [birthing, 'radiography.lower-limb.knee'],
    ] as const) {
      const res = await launch(product, { configuration });
      assert.equal(res.statusCode, 400, `${configuration}: ${res.body}`);
      assert.ok(res.json<Record<string, string[]>>().configuration);
    }
  });
});

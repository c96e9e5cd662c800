import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Product, ProductCategory } from '@portal/contract';
import { seedDemoData } from '../../../../../src/demo/seed-demo-data';
import { authHeader, buildTestApp, type TestApp } from '../../../../helper';
import {
  learner,
  otherLearner,
  productId,
  sysadmin,
} from '../simulator/session-fixtures';

describe('GET /api/v1/product', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  const products = async (sub: string) => {
    const res = await t.app.inject({ url: '/api/v1/product', headers: await authHeader(sub) });
    assert.equal(res.statusCode, 200, res.body);
    return res.json<Product[]>();
  };

  test("a learner sees the products of their organisation's current licences, in catalogue order", async () => {
    const list = await products(learner.sub);
    assert.deepEqual(
      list.map((p) => p.code),
      ['radiography', 'radiation-safety', 'birthing'],
    );
    assert.deepEqual(list[0], {
      id: await productId(t.db, 'radiography'),
      code: 'radiography',
      name: 'Radiography',
      description: list[0]?.description,
      protocol: 'vmc-radiography',
      launchProtocols: ['vmc-radiography', 'vmc-radiography-vr'],
      image: 'images/products/radiography.svg',
      selectionMessage: list[0]?.selectionMessage,
    });
    assert.ok(list.every((p) => p.description.length > 20 && (p.selectionMessage ?? '') !== ''));
  });

  test("each product's launch protocols start with its own scheme; birthing has no alternative", async () => {
    const list = await products(learner.sub);
    assert.deepEqual(
      Object.fromEntries(list.map((p) => [p.code, p.launchProtocols])),
      {
        radiography: ['vmc-radiography', 'vmc-radiography-vr'],
        'radiation-safety': ['vmc-radiation-safety', 'vmc-radiation-safety-vr'],
        birthing: ['vmc-birthing'],
      },
    );
  });

  test('an alternative protocol must be a lower-case scheme other than the product’s own', async () => {
    for (const bad of [['javascript:'], ['Vmc-x'], ['vmc x'], ['vmc-radiography'], [null], ['']]) {
      await assert.rejects(
        t.db.query(`update products set alternative_protocols = $1 where code = 'radiography'`, [
          bad,
        ]),
        /check/i,
        JSON.stringify(bad),
      );
    }
  });

  test('another organisation sees only what its licence grants', async () => {
    assert.deepEqual(
      (await products(otherLearner.sub)).map((p) => p.code),
      ['radiography'],
    );
  });

  test('a global administrator sees every product', async () => {
    assert.deepEqual(
      (await products(sysadmin.sub)).map((p) => p.code),
      ['radiography', 'radiation-safety', 'birthing'],
    );
  });

  test('a licence that is switched off or not yet started hides its products', async () => {
    await t.db.query(
      `update license_blocks set is_active = false where license_name = 'Other College 2026'`,
    );
    assert.deepEqual(await products(otherLearner.sub), []);
    await t.db.query(
      `update license_blocks set is_active = true, start_date = current_date + 1
        where license_name = 'Other College 2026'`,
    );
    assert.deepEqual(await products(otherLearner.sub), []);
    await t.db.query(
      `update license_blocks set start_date = '2026-01-01' where license_name = 'Other College 2026'`,
    );
    assert.deepEqual(
      (await products(otherLearner.sub)).map((p) => p.code),
      ['radiography'],
    );
  });

  test('the list needs a signed-in user', async () => {
    const res = await t.app.inject({ url: '/api/v1/product' });
    assert.equal(res.statusCode, 401);
  });
});

describe('GET /api/v1/product/:productId/category', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  const categories = async (sub: string, id: number | string) =>
    t.app.inject({ url: `/api/v1/product/${id}/category`, headers: await authHeader(sub) });

  test('radiography is four body areas, each with its examinations as launchable leaves', async () => {
    const res = await categories(learner.sub, await productId(t.db, 'radiography'));
    assert.equal(res.statusCode, 200, res.body);
    const tree = res.json<ProductCategory[]>();
    assert.deepEqual(
      tree.map((c) => [c.name, c.displayName, c.image, c.simulationConfiguration]),
      [
        ['lower-limb', 'Lower limb', 'images/categories/radiography/lower-limb.svg', null],
        ['upper-limb', 'Upper limb', 'images/categories/radiography/upper-limb.svg', null],
        ['skull', 'Skull', 'images/categories/radiography/skull.svg', null],
        ['torso', 'Torso', 'images/categories/radiography/torso.svg', null],
      ],
    );
    const lowerLimb = tree[0];
    assert.deepEqual(
      lowerLimb?.children.map((c) => [c.displayName, c.simulationConfiguration, c.image, c.children]),
      [
        ['Foot', 'radiography.lower-limb.foot', null, []],
        ['Ankle', 'radiography.lower-limb.ankle', null, []],
        ['Knee', 'radiography.lower-limb.knee', null, []],
        ['Hip', 'radiography.lower-limb.hip', null, []],
      ],
    );
    assert.deepEqual(
      tree[2]?.children.map((c) => c.name),
      ['skull', 'sinuses', 'facial-bones'],
    );
  });

  test('birthing lists its positions directly under the product, with their images', async () => {
    const res = await categories(learner.sub, await productId(t.db, 'birthing'));
    assert.equal(res.statusCode, 200);
    assert.deepEqual(
      res.json<ProductCategory[]>().map((c) => [c.simulationConfiguration, c.image]),
      [
        ['birthing.all-fours', 'images/categories/birthing/all-fours.svg'],
        ['birthing.kneeling', 'images/categories/birthing/kneeling.svg'],
        ['birthing.semi-recumbent', 'images/categories/birthing/semi-recumbent.svg'],
      ],
    );
  });

  test('radiation safety has a lesson category among its procedure areas', async () => {
    const res = await categories(learner.sub, await productId(t.db, 'radiation-safety'));
    const lesson = res.json<ProductCategory[]>().find((c) => c.name === 'lesson');
    assert.deepEqual(
      lesson?.children.map((c) => c.simulationConfiguration),
      ['radiation-safety.lesson.distance-and-time', 'radiation-safety.lesson.shielding'],
    );
  });

  test("a product the user's organisation is not licensed for is not found", async () => {
    const res = await categories(otherLearner.sub, await productId(t.db, 'radiation-safety'));
    assert.equal(res.statusCode, 404);
    assert.deepEqual(res.json(), { detail: 'Not found.' });
  });

  test('a product that does not exist is not found, even for a global administrator', async () => {
    const res = await categories(sysadmin.sub, 9999);
    assert.equal(res.statusCode, 404);
  });

  test('a product id that is not a positive integer is a field error', async () => {
    const res = await categories(learner.sub, 'abc');
    assert.equal(res.statusCode, 400);
    assert.deepEqual(Object.keys(res.json()), ['productId']);
  });
});

describe('catalogue content in the user\'s language', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  const get = async (sub: string, url: string) => {
    const res = await t.app.inject({ url, headers: await authHeader(sub) });
    assert.equal(res.statusCode, 200, res.body);
    return res;
  };

  test('every product and category of the seed has German content', async () => {
    const missing = await t.db.query<{ what: string }>(
      `select 'product ' || p.code as what from products p
        where not exists (select 1 from product_translations t where t.product_id = p.id and t.language = 'de')
       union all
       select 'category ' || c.name from product_categories c
        where not exists (select 1 from category_translations t where t.category_id = c.id and t.language = 'de')`,
    );
    assert.deepEqual(missing.rows, []);
  });

  test('?language=de serves products in German, and the stored language is the default', async () => {
    const german = (await get(learner.sub, '/api/v1/product?language=de')).json<Product[]>();
    assert.deepEqual(german.map((p) => p.name), ['Radiographie', 'Strahlenschutz', 'Geburtshilfe']);
    assert.match(german[0]?.description ?? '', /^Lagern Sie den Patienten/);
    assert.match(german[0]?.selectionMessage ?? '', /^Wählen Sie eine Körperregion/);
    // learner@demo.test reads English; learner@other.test has German stored.
    assert.equal((await get(learner.sub, '/api/v1/product')).json<Product[]>()[0]?.name, 'Radiography');
    assert.equal((await get(otherLearner.sub, '/api/v1/product')).json<Product[]>()[0]?.name, 'Radiographie');
    assert.equal((await get(otherLearner.sub, '/api/v1/product?language=en')).json<Product[]>()[0]?.name, 'Radiography');
  });

  test('a language without translations falls back to English, text by text', async () => {
    const french = (await get(learner.sub, '/api/v1/product?language=fr')).json<Product[]>();
    assert.deepEqual(french.map((p) => p.name), ['Radiography', 'Radiation safety', 'Birthing']);
    const id = await productId(t.db, 'birthing');
    await t.db.query(`delete from category_translations t using product_categories c
                       where c.id = t.category_id and c.product_id = $1 and c.name = 'kneeling'`, [id]);
    const tree = (await get(learner.sub, `/api/v1/product/${id}/category?language=de`)).json<ProductCategory[]>();
    assert.deepEqual(tree.map((c) => c.displayName), ['Vierfüßlerstand', 'Kneeling', 'Halbsitzend']);
  });

  test('category trees are translated at every level', async () => {
    const id = await productId(t.db, 'radiography');
    const tree = (await get(learner.sub, `/api/v1/product/${id}/category?language=de`)).json<ProductCategory[]>();
    assert.deepEqual(tree.map((c) => c.displayName), ['Untere Extremität', 'Obere Extremität', 'Schädel', 'Rumpf']);
    assert.deepEqual(tree[0]?.children.map((c) => c.displayName), ['Fuß', 'Sprunggelenk', 'Knie', 'Hüfte']);
  });

  test('a malformed language is a 400 that names the field', async () => {
    for (const language of ['german', 'DE', "de'--", '']) {
      const res = await t.app.inject({
        url: `/api/v1/product?language=${encodeURIComponent(language)}`,
        headers: await authHeader(learner.sub),
      });
      assert.equal(res.statusCode, 400, `${language}: ${res.body}`);
      assert.match(res.body, /language/);
    }
  });

});

describe('catalogue seed', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  const snapshot = async () => {
    const tables = [
      'select id, code, name, description, protocol, alternative_protocols, selection_message, image, sort from products order by id',
      'select * from product_categories order by id',
      'select * from entitlements order by id',
      'select id, organisation_id, license_name, number_of_seats, start_date::text, expiry_date::text, is_active, duration_id from license_blocks order by id',
      'select * from license_block_entitlements order by 1, 2',
      'select license_block_id, user_id from license_block_users order by 1, 2',
    ];
    return Promise.all(tables.map(async (sql) => (await t.db.query(sql)).rows));
  };

  test('seeds the catalogue of docs/catalogue.md', async () => {
    const [products, categories, entitlements] = await snapshot();
    assert.equal(products?.length, 3);
    // 4 + 14 radiography, 4 + 8 radiation safety, 3 birthing
    assert.equal(categories?.length, 33);
    assert.equal(entitlements?.length, 6);
    const licences = await t.db.query<{ license_name: string; seats: string[]; grants: string[] }>(
      `select lb.license_name,
              array(select u.email from license_block_users s join users u on u.id = s.user_id
                     where s.license_block_id = lb.id order by u.email) as seats,
              array(select p.code || ':' || e.mode from license_block_entitlements g
                      join entitlements e on e.id = g.entitlement_id
                      join products p on p.id = e.product_id
                     where g.license_block_id = lb.id order by p.sort, e.mode desc) as grants
         from license_blocks lb order by lb.id`,
    );
    assert.deepEqual(licences.rows, [
      {
        license_name: 'Demo Hospital 2026',
        seats: ['educator@demo.test', 'learner@demo.test', 'orgadmin@demo.test'],
        grants: [
          'radiography:VR',
          'radiography:Desktop',
          'radiation-safety:Desktop',
          'birthing:VR',
          'birthing:Desktop',
        ],
      },
      {
        license_name: 'Demo Hospital 2024',
        seats: ['learner@demo.test'],
        grants: ['radiation-safety:VR'],
      },
      { license_name: 'Other College 2026', seats: ['learner@other.test'], grants: ['radiography:Desktop'] },
      {
        license_name: 'Demo Brightspace College 2026',
        seats: ['educator@brightspace.test', 'learner@brightspace.test', 'orgadmin@brightspace.test'],
        grants: ['radiography:VR', 'radiography:Desktop'],
      },
    ]);
  });

  test('seeding again changes nothing', async () => {
    const before = await snapshot();
    await seedDemoData(t.db);
    assert.deepEqual(await snapshot(), before);
  });
});

import { randomUUID } from 'node:crypto';
import type { Db, Queryable } from '../db/driver';
import type { Storage } from '../storage/storage';
import { CATALOGUE, configurationOf } from './catalogue';
import { CATALOGUE_TRANSLATIONS } from '../reference/catalogue-translations';
import { demoMarkingSchemeOf } from './marking-schemes';

/**
 * The demo catalogue's product configurations (issue #9): each product's configuration schema
 * and practice view categories, and one configuration per catalogue leaf, named by the leaf's key
 * (`radiography.lower-limb.knee`), which is what launches ask for. Schemas and categories are
 * catalogue content (brought up to date on every start); configurations are administrators'
 * data, created only where a leaf has none, and left as administrators changed them.
 */

const exposure = {
  type: 'object',
  required: ['kv', 'mAs'],
  properties: {
    kv: { type: 'number', minimum: 40, maximum: 150 },
    mAs: { type: 'number', exclusiveMinimum: 0, maximum: 1000 },
  },
} as const;

/** JSON Schema (draft-07, as ajv checks it) of each demo product's config files. */
export const CONFIGURATION_SCHEMAS: Readonly<Record<string, Record<string, unknown>>> = {
  radiography: {
    type: 'object',
    required: ['examination', 'bodyArea', 'exposure'],
    properties: {
      examination: { type: 'string', minLength: 1 },
      bodyArea: { type: 'string', minLength: 1 },
      exposure,
      sourceImageDistanceCm: { type: 'number', minimum: 50, maximum: 200 },
      detector: {
        type: 'object',
        properties: {
          widthCm: { type: 'number', exclusiveMinimum: 0 },
          heightCm: { type: 'number', exclusiveMinimum: 0 },
        },
      },
    },
  },
  'radiation-safety': {
    type: 'object',
    required: ['procedure', 'area', 'fluoroscopySeconds'],
    properties: {
      procedure: { type: 'string', minLength: 1 },
      area: { type: 'string', minLength: 1 },
      // docs/requirements.md#limits-and-defaults: doses are given for 900 s (15 minutes) of fluoroscopy.
      fluoroscopySeconds: { type: 'integer', minimum: 1, maximum: 3600 },
      exposure,
      lesson: { type: 'boolean' },
    },
  },
  birthing: {
    type: 'object',
    required: ['position'],
    properties: {
      position: { type: 'string', minLength: 1 },
      scenario: { enum: ['normal', 'shoulder-dystocia', 'breech'] },
      durationMinutes: { type: 'integer', minimum: 1, maximum: 240 },
    },
  },
};

interface PracticeViewCategorySeed {
  code: string;
  name: string;
}

/** A product's body-area groups are its practice view categories; one without groups has one. */
export function practiceViewCategoriesOf(code: string): PracticeViewCategorySeed[] {
  const product = CATALOGUE.find((p) => p.code === code);
  if (!product) return [];
  if (product.categories && product.categories.length > 0) {
    return product.categories.map((c) => ({ code: c.slug, name: c.displayName }));
  }
  return [{ code: 'positions', name: 'Positions' }];
}

const RADIOGRAPHY_KV: Readonly<Record<string, number>> = {
  'lower-limb': 60,
  'upper-limb': 55,
  skull: 75,
  torso: 110,
};

/** The config file of one leaf; it matches its product's schema above (a test checks each). */
export function demoConfigFile(
  code: string,
  group: string | null,
  leaf: string,
): Record<string, unknown> {
  switch (code) {
    case 'radiography':
      return {
        examination: leaf,
        bodyArea: group,
        exposure: { kv: RADIOGRAPHY_KV[group ?? ''] ?? 70, mAs: group === 'torso' ? 2.5 : 5 },
        sourceImageDistanceCm: group === 'torso' ? 180 : 110,
        detector: { widthCm: 24, heightCm: 30 },
      };
    case 'radiation-safety':
      return {
        procedure: leaf,
        area: group,
        fluoroscopySeconds: 900,
        exposure: { kv: 80, mAs: 10 },
        lesson: group === 'lesson',
      };
    default:
      return { position: leaf, scenario: 'normal', durationMinutes: 30 };
  }
}

/** The leaf's display name in every language the catalogue has, e.g. `{"de": {"title": "Knie"}}`. */
function demoTranslationFile(code: string, leaf: string, english: string) {
  const result: Record<string, { title: string }> = { en: { title: english } };
  for (const [language, { categories }] of Object.entries(CATALOGUE_TRANSLATIONS)) {
    const title = categories[`${code}.${leaf}`];
    if (title) result[language] = { title };
  }
  return result;
}

interface LeafPlan {
  key: string;
  group: string | null;
  leaf: string;
  displayName: string;
}

function leavesOf(code: string): LeafPlan[] {
  const product = CATALOGUE.find((p) => p.code === code);
  if (!product) return [];
  return [
    ...(product.categories ?? []).flatMap((g) =>
      g.leaves.map((l) => ({
        key: configurationOf(code, g.slug, l.slug),
        group: g.slug,
        leaf: l.slug,
        displayName: l.displayName,
      })),
    ),
    ...(product.leaves ?? []).map((l) => ({
      key: configurationOf(code, l.slug),
      group: null,
      leaf: l.slug,
      displayName: l.displayName,
    })),
  ];
}

async function insertSavedFile(
  tx: Queryable,
  kind: 'sim-config' | 'sim-config-translation',
  name: string,
  storageKey: string,
  bytes: Buffer,
): Promise<string> {
  const id = randomUUID();
  await tx.query(
    `insert into files (id, kind, original_name, mime_type, size, storage_key, state)
     values ($1, $2, $3, 'application/json', $4, $5, 'saved')`,
    [id, kind, name, bytes.length, storageKey],
  );
  return id;
}

/**
 * Brings the demo products' schemas and practice view categories up to date and gives every
 * catalogue leaf without a configuration one (found by name, else created with its files).
 * Answers how many configurations were created.
 */
export async function seedDemoConfigurations(db: Db, storage: Storage): Promise<number> {
  const products = await db.query<{ id: number; code: string }>(
    'select id, code from products order by sort, id',
  );
  let created = 0;
  for (const product of products.rows) {
    const schema = CONFIGURATION_SCHEMAS[product.code];
    if (!schema) continue;
    await db.transaction(async (tx) => {
      await tx.query(
        `update products set configuration_schema = $2::jsonb
          where id = $1 and configuration_schema is distinct from $2::jsonb`,
        [product.id, JSON.stringify(schema)],
      );
      for (const [index, category] of practiceViewCategoriesOf(product.code).entries()) {
        await tx.query(
          `insert into practice_view_categories (product_id, code, name, sort)
           values ($1, $2, $3, $4)
           on conflict (product_id, code) do update set name = excluded.name, sort = excluded.sort`,
          [product.id, category.code, category.name, index + 1],
        );
      }
    });

    for (const plan of leavesOf(product.code)) {
      const unlinked = await db.query<{ id: number }>(
        `select id from product_categories
          where product_id = $1 and simulation_configuration = $2 and configuration_id is null`,
        [product.id, plan.key],
      );
      if (unlinked.rows.length === 0) continue;

      const config = Buffer.from(
        `${JSON.stringify(demoConfigFile(product.code, plan.group, plan.leaf), null, 2)}\n`,
      );
      const translation = Buffer.from(
        `${JSON.stringify(demoTranslationFile(product.code, plan.leaf, plan.displayName), null, 2)}\n`,
      );
      // Bytes first (a key per configuration and attempt), rows after: a crash in between
      // leaves unread bytes, never a row without them.
      const attempt = randomUUID();
      const configKey = `sim-config/seed-${attempt}.json`;
      const translationKey = `sim-config-translation/seed-${attempt}.json`;
      const existing = await db.query<{ id: number }>(
        `select id from product_configurations where product_id = $1 and configuration_name = $2`,
        [product.id, plan.key],
      );
      if (existing.rows.length === 0) {
        await storage.put(configKey, config, 'application/json');
        await storage.put(translationKey, translation, 'application/json');
      }
      const wasCreated = await db.transaction(async (tx) => {
        let configurationId = existing.rows[0]?.id;
        if (configurationId === undefined) {
          const configFile = await insertSavedFile(
            tx,
            'sim-config',
            `${plan.key}.json`,
            configKey,
            config,
          );
          const translationFile = await insertSavedFile(
            tx,
            'sim-config-translation',
            `${plan.key}.translation.json`,
            translationKey,
            translation,
          );
          const inserted = await tx.query<{ id: number }>(
            `insert into product_configurations (product_id, configuration_name,
               practice_view_category_id, config_file_id, translation_file_id, marking_scheme)
             values ($1, $2,
               (select id from practice_view_categories
                 where product_id = $1 and code = $3), $4, $5, $6::jsonb)
             on conflict do nothing
             returning id`,
            [
              product.id,
              plan.key,
              plan.group ?? 'positions',
              configFile,
              translationFile,
              jsonOrNull(demoMarkingSchemeOf(product.code, plan.leaf)),
            ],
          );
          // Another process seeding at the same moment won: link to its configuration.
          configurationId =
            inserted.rows[0]?.id ??
            (
              await tx.query<{ id: number }>(
                `select id from product_configurations
                  where product_id = $1 and lower(configuration_name) = lower($2)`,
                [product.id, plan.key],
              )
            ).rows[0]!.id;
        }
        await tx.query(
          `update product_categories set configuration_id = $3
            where product_id = $1 and simulation_configuration = $2 and configuration_id is null`,
          [product.id, plan.key, configurationId],
        );
        return existing.rows.length === 0;
      });
      if (wasCreated) created += 1;
    }
  }
  await seedDemoMarkingSchemes(db);
  return created;
}

const jsonOrNull = (value: unknown) => (value == null ? null : JSON.stringify(value));

export const DEMO_MARKING_SEED = 'marking-schemes';

/**
 * Demo configurations made before marking existed get their scheme once (the `demo_seeds` row
 * remembers it), so a scheme an administrator removed later stays removed.
 */
async function seedDemoMarkingSchemes(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    const claimed = await tx.query(
      `insert into demo_seeds (name, state, done_at) values ($1, 'done', now())
       on conflict (name) do nothing returning name`,
      [DEMO_MARKING_SEED],
    );
    if (claimed.rows.length === 0) return;
    const rows = await tx.query<{ id: number; code: string; name: string }>(
      `select c.id, p.code, c.configuration_name as name
         from product_configurations c join products p on p.id = c.product_id
        where c.marking_scheme is null`,
    );
    for (const row of rows.rows) {
      const scheme = demoMarkingSchemeOf(row.code, row.name.split('.').pop() ?? '');
      if (!scheme) continue;
      await tx.query('update product_configurations set marking_scheme = $2::jsonb where id = $1', [
        row.id,
        JSON.stringify(scheme),
      ]);
    }
  });
}

import { SIMULATION_MODES, type SimulationMode } from '@portal/contract';
import type { Queryable } from '../db/driver';
import { CATALOGUE_TRANSLATIONS } from '../reference/catalogue-translations';

/**
 * The demo catalogue and licences of docs/catalogue.md. Front-end images and e2e tests key off
 * these codes, slugs and names, so change them only together with that page.
 */

interface LeafSeed {
  slug: string;
  displayName: string;
  image?: string;
}

interface CategorySeed {
  slug: string;
  displayName: string;
  leaves: LeafSeed[];
}

interface ProductSeed {
  code: string;
  name: string;
  protocol: string;
  /** Schemes a launch may name besides `protocol` (docs/catalogue.md): the product's VR build. */
  alternativeProtocols: string[];
  description: string;
  selectionMessage: string;
  /** Body-area groups; a product without groups lists its leaves directly. */
  categories?: CategorySeed[];
  leaves?: LeafSeed[];
}

const leaves = (...names: Array<[slug: string, displayName: string]>): LeafSeed[] =>
  names.map(([slug, displayName]) => ({ slug, displayName }));

export const CATALOGUE: readonly ProductSeed[] = [
  {
    code: 'radiography',
    name: 'Radiography',
    protocol: 'vmc-radiography',
    alternativeProtocols: ['vmc-radiography-vr'],
    description:
      'Position the patient, set up the X-ray tube and detector and capture diagnostic images of the limbs, skull and torso.',
    selectionMessage: 'Choose a body area, then the examination you want to practise.',
    categories: [
      {
        slug: 'lower-limb',
        displayName: 'Lower limb',
        leaves: leaves(['foot', 'Foot'], ['ankle', 'Ankle'], ['knee', 'Knee'], ['hip', 'Hip']),
      },
      {
        slug: 'upper-limb',
        displayName: 'Upper limb',
        leaves: leaves(
          ['hand', 'Hand'],
          ['wrist', 'Wrist'],
          ['elbow', 'Elbow'],
          ['shoulder', 'Shoulder'],
        ),
      },
      {
        slug: 'skull',
        displayName: 'Skull',
        leaves: leaves(['skull', 'Skull'], ['sinuses', 'Sinuses'], ['facial-bones', 'Facial bones']),
      },
      {
        slug: 'torso',
        displayName: 'Torso',
        leaves: leaves(['chest', 'Chest'], ['abdomen', 'Abdomen'], ['pelvis', 'Pelvis']),
      },
    ],
  },
  {
    code: 'radiation-safety',
    name: 'Radiation safety',
    protocol: 'vmc-radiation-safety',
    alternativeProtocols: ['vmc-radiation-safety-vr'],
    description:
      'Work in the fluoroscopy suite and see how distance, time and shielding change the dose you and your colleagues receive.',
    selectionMessage: 'Choose a procedure area, then the procedure or lesson you want to practise.',
    categories: [
      {
        slug: 'head',
        displayName: 'Head',
        leaves: leaves(['cerebral-angiography', 'Cerebral angiography'], ['ct-head', 'CT head']),
      },
      {
        slug: 'heart',
        displayName: 'Heart',
        leaves: leaves(
          ['coronary-angiography', 'Coronary angiography'],
          ['pacemaker-implantation', 'Pacemaker implantation'],
        ),
      },
      {
        slug: 'liver',
        displayName: 'Liver',
        leaves: leaves(['liver-biopsy', 'Liver biopsy'], ['tips-procedure', 'TIPS procedure']),
      },
      {
        slug: 'lesson',
        displayName: 'Lesson',
        leaves: leaves(['distance-and-time', 'Distance and time'], ['shielding', 'Shielding']),
      },
    ],
  },
  {
    code: 'birthing',
    name: 'Birthing',
    protocol: 'vmc-birthing',
    alternativeProtocols: [],
    description:
      'Support a birth in different maternal positions and practise the checks and hand positions each one needs.',
    selectionMessage: 'Choose the birthing position you want to practise.',
    leaves: [
      { slug: 'all-fours', displayName: 'All fours', image: 'images/categories/birthing/all-fours.svg' },
      { slug: 'kneeling', displayName: 'Kneeling', image: 'images/categories/birthing/kneeling.svg' },
      {
        slug: 'semi-recumbent',
        displayName: 'Semi-recumbent',
        image: 'images/categories/birthing/semi-recumbent.svg',
      },
    ],
  },
];

interface LicenceSeed {
  organisation: string;
  licenseName: string;
  salesReference: string;
  numberOfSeats: number;
  startDate: string;
  expiryDate: string;
  /** `license_duration` lookup code. */
  duration: string;
  entitlements: Array<[productCode: string, mode: SimulationMode]>;
  seats: string[];
}

export const LICENCES: readonly LicenceSeed[] = [
  {
    organisation: 'Demo Hospital',
    licenseName: 'Demo Hospital 2026',
    salesReference: 'SO-2026-0001',
    numberOfSeats: 50,
    startDate: '2026-01-01',
    expiryDate: '2027-12-31',
    duration: 'P2Y',
    entitlements: [
      ['radiography', 'VR'],
      ['radiography', 'Desktop'],
      ['radiation-safety', 'Desktop'],
      ['birthing', 'VR'],
      ['birthing', 'Desktop'],
    ],
    seats: ['learner@demo.test', 'educator@demo.test', 'orgadmin@demo.test'],
  },
  {
    // Expired: its Radiation safety VR must not count, although the learner still holds a seat.
    organisation: 'Demo Hospital',
    licenseName: 'Demo Hospital 2024',
    salesReference: 'SO-2024-0007',
    numberOfSeats: 10,
    startDate: '2024-01-01',
    expiryDate: '2024-12-31',
    duration: 'P1Y',
    entitlements: [['radiation-safety', 'VR']],
    seats: ['learner@demo.test'],
  },
  {
    organisation: 'Other College',
    licenseName: 'Other College 2026',
    salesReference: 'SO-2026-0042',
    numberOfSeats: 20,
    startDate: '2026-01-01',
    expiryDate: '2027-12-31',
    duration: 'P2Y',
    entitlements: [['radiography', 'Desktop']],
    seats: ['learner@other.test'],
  },
  {
    organisation: 'Demo Brightspace College',
    licenseName: 'Demo Brightspace College 2026',
    salesReference: 'SO-2026-0077',
    numberOfSeats: 20,
    startDate: '2026-01-01',
    expiryDate: '2027-12-31',
    duration: 'P2Y',
    entitlements: [
      ['radiography', 'VR'],
      ['radiography', 'Desktop'],
    ],
    seats: ['learner@brightspace.test', 'educator@brightspace.test', 'orgadmin@brightspace.test'],
  },
];

/** `<product code>.<category slug>.<leaf slug>`, or `<product code>.<leaf slug>` without a group. */
export function configurationOf(productCode: string, ...slugs: string[]): string {
  return [productCode, ...slugs].join('.');
}

async function one<T>(tx: Queryable, sql: string, params: readonly unknown[]): Promise<T> {
  const row = (await tx.query<T>(sql, params)).rows[0];
  if (!row) throw new Error(`Catalogue seed: no row for ${sql} ${JSON.stringify(params)}`);
  return row;
}

/**
 * Categories have no natural unique key in the schema, so "the same category" is the same name
 * under the same parent of the same product. Updating it in place keeps its id stable, which
 * sessions (and so reports) refer to.
 */
async function upsertCategory(
  tx: Queryable,
  productId: number,
  parentId: number | null,
  sort: number,
  c: { name: string; displayName: string; image: string | null; configuration: string | null },
): Promise<number> {
  const existing = await tx.query<{ id: number }>(
    `select id from product_categories
      where product_id = $1 and parent_id is not distinct from $2 and name = $3
      order by id limit 1`,
    [productId, parentId, c.name],
  );
  const id = existing.rows[0]?.id;
  if (id !== undefined) {
    await tx.query(
      `update product_categories
          set display_name = $2, image = $3, simulation_configuration = $4, sort = $5
        where id = $1
          and (display_name, image, simulation_configuration, sort)
              is distinct from ($2, $3, $4, $5)`,
      [id, c.displayName, c.image, c.configuration, sort],
    );
    return id;
  }
  const inserted = await one<{ id: number }>(
    tx,
    `insert into product_categories
       (product_id, parent_id, name, display_name, image, simulation_configuration, sort)
     values ($1, $2, $3, $4, $5, $6, $7) returning id`,
    [productId, parentId, c.name, c.displayName, c.image, c.configuration, sort],
  );
  return inserted.id;
}

async function upsertProductTranslations(tx: Queryable, productId: number, code: string): Promise<void> {
  for (const [language, { products }] of Object.entries(CATALOGUE_TRANSLATIONS)) {
    const t = products[code];
    if (!t) continue;
    await tx.query(
      `insert into product_translations (product_id, language, name, description, selection_message)
       values ($1, $2, $3, $4, $5)
       on conflict (product_id, language) do update
         set name = excluded.name, description = excluded.description,
             selection_message = excluded.selection_message`,
      [productId, language, t.name, t.description, t.selectionMessage],
    );
  }
}

async function upsertCategoryTranslations(tx: Queryable, categoryId: number, key: string): Promise<void> {
  for (const [language, { categories }] of Object.entries(CATALOGUE_TRANSLATIONS)) {
    const displayName = categories[key];
    if (!displayName) continue;
    await tx.query(
      `insert into category_translations (category_id, language, display_name) values ($1, $2, $3)
       on conflict (category_id, language) do update set display_name = excluded.display_name`,
      [categoryId, language, displayName],
    );
  }
}

/**
 * Products and categories are catalogue content owned by this code (no screen edits them), so
 * they are brought up to date on every start. Licences and seats are administrators' data: they
 * are created when missing and otherwise left as the administrators changed them.
 */
export async function seedCatalogue(tx: Queryable): Promise<void> {
  for (const [index, p] of CATALOGUE.entries()) {
    const product = await one<{ id: number }>(
      tx,
      `insert into products (code, name, description, protocol, alternative_protocols,
                             selection_message, image, sort)
       values ($1, $2, $3, $4, $5, $6, $7, $8)
       on conflict (code) do update
         set name = excluded.name, description = excluded.description,
             protocol = excluded.protocol, alternative_protocols = excluded.alternative_protocols,
             selection_message = excluded.selection_message,
             image = excluded.image, sort = excluded.sort
       returning id`,
      [
        p.code,
        p.name,
        p.description,
        p.protocol,
        p.alternativeProtocols,
        p.selectionMessage,
        `images/products/${p.code}.svg`,
        index + 1,
      ],
    );
    await upsertProductTranslations(tx, product.id, p.code);
    for (const [ci, category] of (p.categories ?? []).entries()) {
      const categoryId = await upsertCategory(tx, product.id, null, ci + 1, {
        name: category.slug,
        displayName: category.displayName,
        image: `images/categories/${p.code}/${category.slug}.svg`,
        configuration: null,
      });
      await upsertCategoryTranslations(tx, categoryId, `${p.code}.${category.slug}`);
      for (const [li, leaf] of category.leaves.entries()) {
        const leafId = await upsertCategory(tx, product.id, categoryId, li + 1, {
          name: leaf.slug,
          displayName: leaf.displayName,
          image: leaf.image ?? null,
          configuration: configurationOf(p.code, category.slug, leaf.slug),
        });
        await upsertCategoryTranslations(tx, leafId, `${p.code}.${leaf.slug}`);
      }
    }
    for (const [li, leaf] of (p.leaves ?? []).entries()) {
      const leafId = await upsertCategory(tx, product.id, null, li + 1, {
        name: leaf.slug,
        displayName: leaf.displayName,
        image: leaf.image ?? null,
        configuration: configurationOf(p.code, leaf.slug),
      });
      await upsertCategoryTranslations(tx, leafId, `${p.code}.${leaf.slug}`);
    }
    for (const mode of SIMULATION_MODES) {
      await tx.query(
        'insert into entitlements (product_id, mode) values ($1, $2) on conflict do nothing',
        [product.id, mode],
      );
    }
  }

  for (const l of LICENCES) {
    const organisation = await tx.query<{ id: number }>(
      'select id from organisations where lower(name) = lower($1)',
      [l.organisation],
    );
    const organisationId = organisation.rows[0]?.id;
    // The organisation was removed by an administrator: its licences go with it.
    if (organisationId === undefined) continue;

    const existing = await tx.query<{ id: number }>(
      'select id from license_blocks where organisation_id = $1 and license_name = $2 order by id limit 1',
      [organisationId, l.licenseName],
    );
    if (existing.rows[0]) continue;

    const block = await one<{ id: number }>(
      tx,
      `insert into license_blocks (organisation_id, license_name, sales_reference, number_of_seats,
         start_date, expiry_date, is_active, duration_id)
       values ($1, $2, $3, $4, $5, $6, true,
         (select id from lookups where field = 'license_duration' and code = $7))
       returning id`,
      [
        organisationId,
        l.licenseName,
        l.salesReference,
        l.numberOfSeats,
        l.startDate,
        l.expiryDate,
        l.duration,
      ],
    );
    for (const [code, mode] of l.entitlements) {
      await tx.query(
        `insert into license_block_entitlements (license_block_id, entitlement_id)
         select $1, e.id from entitlements e join products p on p.id = e.product_id
          where p.code = $2 and e.mode = $3
         on conflict do nothing`,
        [block.id, code, mode],
      );
    }
    await tx.query(
      `insert into license_block_users (license_block_id, user_id)
       select $1, u.id from users u
        where lower(u.email) = any($2::text[]) and u.organisation_id = $3
       on conflict do nothing`,
      [block.id, l.seats.map((s) => s.toLowerCase()), organisationId],
    );
  }
}

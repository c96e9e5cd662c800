import type {
  MarkingScheme,
  LookupItem,
  PagedQuery,
  PagedResult,
  ProductConfiguration,
  UploadedFile,
} from '@portal/contract';
import type { Queryable } from '../db/driver';
import { pagedList } from '../lib/paged-list';

interface ConfigurationRow {
  id: number;
  product_id: number;
  configuration_name: string;
  practice_view_category_id: number;
  is_self_assessment: boolean;
  config_file_id: string;
  config_file_name: string;
  config_file_size: number;
  config_file_state: UploadedFile['state'];
  translation_file_id: string | null;
  translation_file_name: string | null;
  translation_file_size: number | null;
  translation_file_state: UploadedFile['state'] | null;
}

// Configuration files are at most 10 MB, so their size fits an int whatever files.size's type.
const SELECT = `pc.id, pc.product_id, pc.configuration_name, pc.practice_view_category_id,
  pc.is_self_assessment,
  cf.id::text as config_file_id, cf.original_name as config_file_name,
  cf.size::int as config_file_size, cf.state as config_file_state,
  tf.id::text as translation_file_id, tf.original_name as translation_file_name,
  tf.size::int as translation_file_size, tf.state as translation_file_state`;
const FROM = `product_configurations pc
  join files cf on cf.id = pc.config_file_id
  left join files tf on tf.id = pc.translation_file_id`;

function toConfiguration(row: ConfigurationRow): ProductConfiguration {
  return {
    id: row.id,
    product: row.product_id,
    configurationName: row.configuration_name,
    practiceViewCategory: row.practice_view_category_id,
    isSelfAssessment: row.is_self_assessment,
    configFile: {
      id: row.config_file_id,
      originalName: row.config_file_name,
      size: row.config_file_size,
      state: row.config_file_state,
    },
    translationFile:
      row.translation_file_id === null
        ? null
        : {
            id: row.translation_file_id,
            originalName: row.translation_file_name ?? '',
            size: row.translation_file_size ?? 0,
            state: row.translation_file_state ?? 'saved',
          },
  };
}

/** A concurrent save took the name first (the unique index on the product and lower(name)). */
export function isConfigurationNameTaken(error: unknown): boolean {
  const e = error as { code?: unknown; constraint?: unknown; message?: unknown };
  return (
    e.code === '23505' &&
    (e.constraint === 'product_configurations_name_key' ||
      (typeof e.message === 'string' && e.message.includes('product_configurations_name_key')))
  );
}

/** What a save writes, checked by the caller. */
export interface ConfigurationValues {
  configurationName: string;
  practiceViewCategory: number;
  isSelfAssessment: boolean;
  configFile: string;
  translationFile: string | null;
}

/** The launch's `configuration` resolved: the record and the catalogue leaves that start it. */
export interface ResolvedConfiguration {
  id: number;
  leafIds: number[];
}

/**
 * The configuration record a launch's `configuration` starts (by its name, or by the
 * `simulation_configuration` of a catalogue category; the name wins) as `id`, with the ids of its
 * leaf categories as `leaf_ids` (null when none); no row when it starts none. `product` and
 * `configuration` are SQL placeholders. resolveLaunch and the session launch's read share it.
 */
export function launchConfigurationSql(product: string, configuration: string): string {
  return `select t.id,
                (select array_agg(c.id order by c.id) from product_categories c
                  where c.configuration_id = t.id
                    and not exists (select 1 from product_categories child
                                     where child.parent_id = c.id)) as leaf_ids
           from (select pc.id from product_configurations pc
                  where pc.product_id = ${product}
                    and (pc.configuration_name = ${configuration}
                         or exists (select 1 from product_categories c
                                     where c.configuration_id = pc.id
                                       and c.simulation_configuration = ${configuration}))
                  order by (pc.configuration_name = ${configuration}) desc, pc.id
                  limit 1) t`;
}

/** Writes need a transaction (`lock` holds the row until it ends); reads run on the pool too. */
export function createProductConfigurationRepository(q: Queryable) {
  return {
    /** The product with its configuration JSON Schema; null when there is no such product. */
    async product(
      productId: number,
    ): Promise<{ id: number; schema: Record<string, unknown> } | null> {
      const res = await q.query<{ id: number; configuration_schema: Record<string, unknown> }>(
        'select id, configuration_schema from products where id = $1',
        [productId],
      );
      const row = res.rows[0];
      return row ? { id: row.id, schema: row.configuration_schema } : null;
    },

    /** `product`, its row locked until the transaction ends. */
    async lockProduct(
      productId: number,
    ): Promise<{ id: number; schema: Record<string, unknown> } | null> {
      const res = await q.query<{ id: number; configuration_schema: Record<string, unknown> }>(
        'select id, configuration_schema from products where id = $1 for update',
        [productId],
      );
      const row = res.rows[0];
      return row ? { id: row.id, schema: row.configuration_schema } : null;
    },

    async replaceSchema(productId: number, schema: Record<string, unknown>): Promise<void> {
      await q.query('update products set configuration_schema = $2::jsonb where id = $1', [
        productId,
        JSON.stringify(schema),
      ]);
    },

    async list(productId: number, query: PagedQuery): Promise<PagedResult<ProductConfiguration>> {
      return pagedList<ConfigurationRow, ProductConfiguration>(q, query, {
        from: FROM,
        select: SELECT,
        where: { sql: 'pc.product_id = $1', params: [productId] },
        sortable: {
          id: 'pc.id',
          configurationName: 'lower(pc.configuration_name)',
          practiceViewCategory: 'pc.practice_view_category_id',
          isSelfAssessment: 'pc.is_self_assessment',
        },
        searchable: ['pc.configuration_name'],
        defaultOrdering: 'configurationName',
        tieBreaker: 'pc.id',
        map: toConfiguration,
      });
    },

    /** One configuration of the product; another product's id is not found. */
    async find(productId: number, id: number): Promise<ProductConfiguration | null> {
      const res = await q.query<ConfigurationRow>(
        `select ${SELECT} from ${FROM} where pc.product_id = $1 and pc.id = $2`,
        [productId, id],
      );
      const row = res.rows[0];
      return row ? toConfiguration(row) : null;
    },

    /** The configuration's marking scheme; undefined when there is no such configuration. */
    async markingScheme(productId: number, id: number): Promise<MarkingScheme | null | undefined> {
      const res = await q.query<{ marking_scheme: MarkingScheme | null }>(
        'select marking_scheme from product_configurations where product_id = $1 and id = $2',
        [productId, id],
      );
      return res.rows.length === 0 ? undefined : (res.rows[0]?.marking_scheme ?? null);
    },

    async replaceMarkingScheme(id: number, scheme: MarkingScheme | null): Promise<void> {
      await q.query(
        `update product_configurations set marking_scheme = $2::jsonb, updated_at = now()
          where id = $1`,
        [id, scheme === null ? null : JSON.stringify(scheme)],
      );
    },

    /** Locks the configuration row until the transaction ends, so two saves of it run one after the other. */
    async lock(productId: number, id: number): Promise<boolean> {
      const res = await q.query(
        'select 1 from product_configurations where product_id = $1 and id = $2 for update',
        [productId, id],
      );
      return res.rows.length > 0;
    },

    async hasPracticeViewCategory(productId: number, id: number): Promise<boolean> {
      const res = await q.query(
        'select 1 from practice_view_categories where product_id = $1 and id = $2',
        [productId, id],
      );
      return res.rows.length > 0;
    },

    /** The lookup `practice_view_category` of one product, in the product's order. */
    async practiceViewCategories(productId: number): Promise<LookupItem[]> {
      const res = await q.query<LookupItem>(
        `select id, name, null::text as description, code from practice_view_categories
          where product_id = $1 order by sort, id`,
        [productId],
      );
      return res.rows;
    },

    /** The configuration a file belongs to, if any. */
    async fileUser(fileId: string): Promise<number | null> {
      const res = await q.query<{ id: number }>(
        `select id from product_configurations
          where config_file_id = $1 or translation_file_id = $1 limit 1`,
        [fileId],
      );
      return res.rows[0]?.id ?? null;
    },

    /** Another configuration of the product already has the name (case-insensitive). */
    async nameTaken(productId: number, name: string, exceptId: number | null): Promise<boolean> {
      const res = await q.query(
        `select 1 from product_configurations
          where product_id = $1 and lower(configuration_name) = lower($2)
            and id is distinct from $3`,
        [productId, name, exceptId],
      );
      return res.rows.length > 0;
    },

    async insert(productId: number, v: ConfigurationValues): Promise<number> {
      const res = await q.query<{ id: number }>(
        `insert into product_configurations (product_id, configuration_name,
           practice_view_category_id, is_self_assessment, config_file_id, translation_file_id)
         values ($1, $2, $3, $4, $5, $6) returning id`,
        [
          productId,
          v.configurationName,
          v.practiceViewCategory,
          v.isSelfAssessment,
          v.configFile,
          v.translationFile,
        ],
      );
      return res.rows[0]!.id;
    },

    async update(id: number, v: ConfigurationValues): Promise<void> {
      await q.query(
        `update product_configurations
            set configuration_name = $2, practice_view_category_id = $3, is_self_assessment = $4,
                config_file_id = $5, translation_file_id = $6, updated_at = now()
          where id = $1`,
        [
          id,
          v.configurationName,
          v.practiceViewCategory,
          v.isSelfAssessment,
          v.configFile,
          v.translationFile,
        ],
      );
    },

    /**
     * The configuration record a launch's `configuration` names: the record of that name, else
     * the one a catalogue leaf with that key starts (the key outlives a rename, so LTI links made
     * before it keep working). Null when the product has neither.
     */
    async resolveLaunch(
      productId: number,
      configuration: string,
    ): Promise<ResolvedConfiguration | null> {
      const res = await q.query<{ id: number; leaf_ids: number[] | null }>(
        launchConfigurationSql('$1', '$2'),
        [productId, configuration],
      );
      const row = res.rows[0];
      return row ? { id: row.id, leafIds: row.leaf_ids ?? [] } : null;
    },
  };
}

export type ProductConfigurationRepository = ReturnType<
  typeof createProductConfigurationRepository
>;

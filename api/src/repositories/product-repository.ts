import type { Product, ProductCategory } from '@portal/contract';
import type { Queryable } from '../db/driver';

interface ProductRow {
  id: number;
  code: string;
  name: string;
  description: string;
  protocol: string;
  alternative_protocols: string[];
  image: string | null;
  selection_message: string | null;
}

interface CategoryRow {
  id: number;
  parent_id: number | null;
  name: string;
  display_name: string;
  image: string | null;
  simulation_configuration: string | null;
}

const toProduct = (row: ProductRow): Product => ({
  id: row.id,
  code: row.code,
  name: row.name,
  description: row.description,
  protocol: row.protocol,
  launchProtocols: [row.protocol, ...row.alternative_protocols],
  image: row.image,
  selectionMessage: row.selection_message,
});

/** Siblings keep the rows' order; a child may come before its parent, hence two passes. */
export function buildCategoryTree(rows: readonly CategoryRow[]): ProductCategory[] {
  const nodes = new Map<number, ProductCategory>();
  for (const row of rows) {
    nodes.set(row.id, {
      id: row.id,
      name: row.name,
      displayName: row.display_name,
      image: row.image,
      simulationConfiguration: row.simulation_configuration,
      children: [],
    });
  }
  const roots: ProductCategory[] = [];
  for (const row of rows) {
    const node = nodes.get(row.id);
    if (!node) continue;
    if (row.parent_id === null) roots.push(node);
    else nodes.get(row.parent_id)?.children.push(node);
  }
  return roots;
}

export function createProductRepository(q: Queryable) {
  return {
    /**
     * The given products in catalogue order, their texts in `language` where translated (English
     * otherwise); ids that do not exist are skipped.
     */
    async listByIds(ids: readonly number[], language = 'en'): Promise<Product[]> {
      if (ids.length === 0) return [];
      const res = await q.query<ProductRow>(
        `select p.id, p.code, coalesce(t.name, p.name) as name,
                coalesce(t.description, p.description) as description, p.protocol,
                p.alternative_protocols, p.image,
                coalesce(t.selection_message, p.selection_message) as selection_message
           from products p
           left join product_translations t on t.product_id = p.id and t.language = $2
          where p.id = any($1::int[]) order by p.sort, p.id`,
        [[...ids], language],
      );
      return res.rows.map(toProduct);
    },

    async categoryTree(productId: number, language = 'en'): Promise<ProductCategory[]> {
      const res = await q.query<CategoryRow>(
        `select c.id, c.parent_id, c.name, coalesce(t.display_name, c.display_name) as display_name,
                c.image, c.simulation_configuration
           from product_categories c
           left join category_translations t on t.category_id = c.id and t.language = $2
          where c.product_id = $1
          order by c.sort, c.id`,
        [productId, language],
      );
      return buildCategoryTree(res.rows);
    },
  };
}

export type ProductRepository = ReturnType<typeof createProductRepository>;

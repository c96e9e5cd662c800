import type { Product, ProductCategory } from '@portal/contract';
import type { Queryable } from '../db/driver';

interface ProductRow {
  id: number;
  code: string;
  name: string;
  description: string;
  protocol: string;
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

export function createProductRepository(db: Queryable) {
  return {
    /** The given products in catalogue order; ids that do not exist are skipped. */
    async listByIds(ids: readonly number[]): Promise<Product[]> {
      if (ids.length === 0) return [];
      const res = await db.query<ProductRow>(
        `select id, code, name, description, protocol, image, selection_message
           from products where id = any($1::int[]) order by sort, id`,
        [[...ids]],
      );
      return res.rows.map(toProduct);
    },

    async categoryTree(productId: number): Promise<ProductCategory[]> {
      const res = await db.query<CategoryRow>(
        `select id, parent_id, name, display_name, image, simulation_configuration
           from product_categories where product_id = $1
          order by sort, id`,
        [productId],
      );
      return buildCategoryTree(res.rows);
    },

    /**
     * Ids of the product's leaf categories that start `configuration`. Only leaves are launchable;
     * a configuration left on an inner node by an edit does not count.
     */
    async leafIdsWithConfiguration(productId: number, configuration: string): Promise<number[]> {
      const res = await db.query<{ id: number }>(
        `select c.id from product_categories c
          where c.product_id = $1 and c.simulation_configuration = $2
            and not exists (select 1 from product_categories child where child.parent_id = c.id)
          order by c.id`,
        [productId, configuration],
      );
      return res.rows.map((r) => r.id);
    },
  };
}

export type ProductRepository = ReturnType<typeof createProductRepository>;

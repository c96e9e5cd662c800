import type { DownloadGroup, OperatingSystem, UserDownload } from '@portal/contract';
import type { Queryable } from '../db/driver';

interface DownloadRow {
  product_id: number;
  product_name: string;
  id: number | null;
  version: string | null;
  operating_system: OperatingSystem | null;
  file_id: string | null;
  file_url: string | null;
}

export function createDownloadRepository(q: Queryable) {
  return {
    /**
     * Active installer versions of these products, one group per product in the given order,
     * newest version first (compared numerically: 2.10.0 after 2.9.1). A product without any
     * active download still has its (empty) group, so the page can say so.
     */
    async activeByProduct(productIds: readonly number[]): Promise<DownloadGroup[]> {
      if (productIds.length === 0) return [];
      const res = await q.query<DownloadRow>(
        `select p.id as product_id, p.name as product_name, d.id, d.version,
                d.operating_system, d.file_id, d.file_url
           from products p
           left join simulation_downloads d on d.product_id = p.id and d.is_active
          where p.id = any($1::int[])
          order by array_position($1::int[], p.id),
                   string_to_array(d.version, '.')::int[] desc,
                   case d.operating_system when 'windows' then 0 else 1 end, d.id`,
        [productIds],
      );
      const groups = new Map<number, DownloadGroup>();
      for (const row of res.rows) {
        let group = groups.get(row.product_id);
        if (!group) {
          group = { id: row.product_id, name: row.product_name, downloads: [] };
          groups.set(row.product_id, group);
        }
        if (row.id === null || row.version === null || row.operating_system === null) continue;
        const download: UserDownload = {
          id: row.id,
          version: row.version,
          operatingSystem: row.operating_system,
          fileId: row.file_id,
          fileUrl: row.file_url ?? '',
        };
        group.downloads.push(download);
      }
      return [...groups.values()];
    },
  };
}

export type DownloadRepository = ReturnType<typeof createDownloadRepository>;

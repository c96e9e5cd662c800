import { randomUUID } from 'node:crypto';
import { crc32 } from 'node:zlib';
import type { OperatingSystem } from '@portal/contract';
import type { Db } from '../db/driver';
import type { Storage } from '../storage/local-storage';

/** Per product: the current version (offered) and the one before it (withdrawn). */
export const DEMO_DOWNLOAD_VERSIONS = [
  { version: '2.4.1', isActive: true },
  { version: '2.3.0', isActive: false },
] as const;
const SYSTEMS: Array<{ os: OperatingSystem; label: string }> = [
  { os: 'windows', label: 'Windows' },
  { os: 'mac', label: 'macOS' },
];

export const installerName = (code: string, version: string, os: OperatingSystem) =>
  `${code}-${version}-${os}.zip`;

/**
 * A minimal valid ZIP (one stored, uncompressed entry), so a demo installer opens in any archive
 * tool instead of being a mislabelled text file. Only the fields readers check are filled in.
 */
export function zipOf(entryName: string, content: Buffer): Buffer {
  const name = Buffer.from(entryName, 'utf8');
  const crc = crc32(content);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(10, 4); // version needed: 1.0
  local.writeUInt16LE(0x0800, 6); // UTF-8 names
  local.writeUInt32LE(crc, 14);
  local.writeUInt32LE(content.length, 18);
  local.writeUInt32LE(content.length, 22);
  local.writeUInt16LE(name.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(10, 6);
  central.writeUInt16LE(0x0800, 8);
  central.writeUInt32LE(crc, 16);
  central.writeUInt32LE(content.length, 20);
  central.writeUInt32LE(content.length, 24);
  central.writeUInt16LE(name.length, 28);
  const centralOffset = local.length + name.length + content.length;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + name.length, 12);
  end.writeUInt32LE(centralOffset, 16);
  return Buffer.concat([local, name, content, central, name, end]);
}

function installerPayload(product: string, version: string, label: string): Buffer {
  const readme = [
    `${product} ${version} for ${label}`,
    '',
    'Demo installer of the Simulation Portal. A real deployment replaces this archive with the',
    'simulation app installer uploaded by an administrator.',
    '',
  ].join('\n');
  return zipOf('README.txt', Buffer.from(readme, 'utf8'));
}

interface ProductRow {
  id: number;
  code: string;
  name: string;
}

/**
 * Windows and macOS installers of every product: the current version active, the previous one
 * inactive. The archives are generated here rather than committed. Idempotent: existing download
 * rows are kept as administrators left them; only missing rows are added, and missing bytes
 * (a wiped storage folder beside a kept database) are written again.
 */
export async function seedDemoDownloads(db: Db, storage: Storage): Promise<number> {
  const products = await db.query<ProductRow>(
    'select id, code, name from products order by sort, id',
  );
  let added = 0;
  for (const product of products.rows) {
    for (const { version, isActive } of DEMO_DOWNLOAD_VERSIONS) {
      for (const { os, label } of SYSTEMS) {
        const name = installerName(product.code, version, os);
        const storageKey = `installers/${product.code}/${version}/${name}`;
        const bytes = installerPayload(product.name, version, label);
        const existing = await db.query<{ storage_key: string }>(
          `select f.storage_key from simulation_downloads d
             left join files f on f.id = d.file_id
            where d.product_id = $1 and d.version = $2 and d.operating_system = $3`,
          [product.id, version, os],
        );
        if (existing.rows.length > 0) {
          const key = existing.rows[0]?.storage_key;
          if (key === storageKey) {
            const stored = await storage.open(key);
            if (stored) stored.stream.destroy();
            else await storage.put(key, bytes);
          }
          continue;
        }
        await storage.put(storageKey, bytes);
        await db.transaction(async (tx) => {
          const fileId = randomUUID();
          await tx.query(
            `insert into files (id, kind, original_name, mime_type, size, storage_key, state)
             values ($1, 'sim-installation-file', $2, 'application/zip', $3, $4, 'saved')
             on conflict (storage_key) do nothing`,
            [fileId, name, bytes.length, storageKey],
          );
          const file = await tx.query<{ id: string }>(
            'select id from files where storage_key = $1',
            [storageKey],
          );
          await tx.query(
            `insert into simulation_downloads (product_id, version, operating_system, is_active,
                                               file_url, file_id)
             values ($1, $2, $3, $4, $5, $6)
             on conflict (product_id, version, operating_system) do nothing`,
            [
              product.id,
              version,
              os,
              isActive,
              `https://downloads.example.invalid/${product.code}/${version}/${os}`,
              file.rows[0]?.id ?? fileId,
            ],
          );
        });
        added += 1;
      }
    }
  }
  return added;
}

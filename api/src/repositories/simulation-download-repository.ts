import {
  DOWNLOAD_FIELD_MESSAGES,
  FIELD_MESSAGE_TEMPLATES,
  VERSION_PATTERN,
  formatFieldMessage,
  type FieldErrors,
  type SimulationDownload,
  type SimulationDownloadInput,
  type PagedQuery,
} from '@portal/contract';
import type { Queryable } from '../db/driver';
import { badRequest } from '../lib/http-errors';
import { pagedList } from '../lib/paged-list';
import { type AuditActor, createAuditRepository } from './audit-repository';

export const DOWNLOAD_MESSAGES = {
  version: DOWNLOAD_FIELD_MESSAGES.version,
  duplicate: (version: string, os: string) =>
    formatFieldMessage(FIELD_MESSAGE_TEMPLATES.versionTaken, { version, os }),
  fileUrl: DOWNLOAD_FIELD_MESSAGES.fileUrl,
  file: 'Upload the installer again: this file is not an installer you uploaded.',
} as const;

interface DownloadRow {
  id: number;
  product_id: number;
  version: string;
  operating_system: SimulationDownload['operatingSystem'];
  is_active: boolean;
  file_url: string;
  file_id: string | null;
  file_name: string | null;
  file_size: string | number | null;
  file_state: 'uploading' | 'uploaded' | 'saved' | null;
}

const SELECT = `d.id, d.product_id, d.version, d.operating_system, d.is_active, d.file_url,
  d.file_id::text as file_id, f.original_name as file_name, f.size as file_size,
  f.state as file_state`;
const FROM = 'simulation_downloads d left join files f on f.id = d.file_id';

const toDownload = (row: DownloadRow): SimulationDownload => ({
  id: row.id,
  product: row.product_id,
  version: row.version,
  operatingSystem: row.operating_system,
  isActive: row.is_active,
  fileUrl: row.file_url,
  file:
    row.file_id !== null && row.file_name !== null && row.file_state !== null
      ? {
          id: row.file_id,
          originalName: row.file_name,
          // bigint: installers may pass 2^31 bytes, so PostgreSQL hands the size over as text.
          size: Number(row.file_size ?? 0),
          state: row.file_state,
        }
      : null,
  fileId: row.file_id,
});

const VERSION = new RegExp(VERSION_PATTERN);

/** An https URL a browser can follow as it is: no other scheme, no credentials, no blanks. */
export function isHttpsUrl(text: string): boolean {
  if (text !== text.trim() || /\s/.test(text)) return false;
  try {
    const url = new URL(text);
    return url.protocol === 'https:' && url.hostname !== '' && !url.username && !url.password;
  } catch {
    return false;
  }
}

/** A concurrent writer saved the same version first (simulation_downloads' unique key). */
const isDuplicateVersion = (error: unknown) =>
  (error as { code?: unknown }).code === '23505' &&
  String(
    (error as { constraint?: unknown; message?: unknown }).constraint ?? (error as Error).message,
  ).includes('simulation_downloads_product_id_version_operating_system');

/**
 * Installer versions of a product as administrators keep them (docs/requirements.md#administration, #data Simulation
 * download). Learners read the active ones through download-repository.ts.
 */
export function createSimulationDownloadRepository(q: Queryable) {
  async function findIn(tx: Queryable, productId: number, id: number) {
    const res = await tx.query<DownloadRow>(
      `select ${SELECT} from ${FROM} where d.product_id = $1 and d.id = $2`,
      [productId, id],
    );
    const row = res.rows[0];
    return row ? toDownload(row) : null;
  }

  /** Field errors the schema cannot see; `current`: the download being edited. */
  async function validate(
    tx: Queryable,
    productId: number,
    input: SimulationDownloadInput,
    actor: AuditActor,
    current: SimulationDownload | null,
  ): Promise<FieldErrors> {
    const errors: FieldErrors = {};
    if (!VERSION.test(input.version)) errors.version = [DOWNLOAD_MESSAGES.version];
    if (!isHttpsUrl(input.fileUrl)) errors.fileUrl = [DOWNLOAD_MESSAGES.fileUrl];
    if (!errors.version) {
      const taken = await tx.query(
        `select 1 from simulation_downloads
          where product_id = $1 and version = $2 and operating_system = $3 and id <> $4`,
        [productId, input.version, input.operatingSystem, current?.id ?? 0],
      );
      if (taken.rowCount > 0) {
        errors.version = [DOWNLOAD_MESSAGES.duplicate(input.version, input.operatingSystem)];
      }
    }
    const fileId = input.fileId ?? null;
    if (fileId !== null && fileId.toLowerCase() !== current?.fileId?.toLowerCase()) {
      // A fresh upload of the caller's own, or an installer this product already offers (the
      // same archive for another version); never a file that belongs to another form.
      const usable = await tx.query(
        `select 1 from files f
          where f.id = $1 and f.kind = 'sim-installation-file'
            and ((f.state = 'uploaded' and f.owner_id = $2)
                 or (f.state = 'saved' and exists (
                       select 1 from simulation_downloads d
                        where d.file_id = f.id and d.product_id = $3)))
            for update of f`,
        [fileId, actor.id, productId],
      );
      if (usable.rowCount === 0) errors.file = [DOWNLOAD_MESSAGES.file];
    }
    return errors;
  }

  async function write(
    productId: number,
    input: SimulationDownloadInput,
    actor: AuditActor,
    id: number | null,
  ): Promise<SimulationDownload | null> {
    try {
      const product = await q.query('select 1 from products where id = $1 for share', [productId]);
      if (product.rowCount === 0) return null;
      let before: SimulationDownload | null = null;
      if (id !== null) {
        const locked = await q.query(
          'select 1 from simulation_downloads where product_id = $1 and id = $2 for update',
          [productId, id],
        );
        if (locked.rowCount === 0) return null;
        before = await findIn(q, productId, id);
      }
      const errors = await validate(q, productId, input, actor, before);
      if (Object.keys(errors).length > 0) throw badRequest(errors);
      const values = [
        input.version,
        input.operatingSystem,
        input.fileUrl,
        input.fileId?.toLowerCase() ?? null,
        input.isActive ?? true,
      ];
      let savedId: number;
      if (id === null) {
        const inserted = await q.query<{ id: number }>(
          `insert into simulation_downloads
             (product_id, version, operating_system, file_url, file_id, is_active)
           values ($1, $2, $3, $4, $5, $6) returning id`,
          [productId, ...values],
        );
        savedId = inserted.rows[0]!.id;
      } else {
        await q.query(
          `update simulation_downloads
              set version = $3, operating_system = $4, file_url = $5, file_id = $6,
                  is_active = $7, updated_at = now()
            where product_id = $1 and id = $2`,
          [productId, id, ...values],
        );
        savedId = id;
      }
      // docs/requirements.md#file-states: the upload is `saved` once the form that uses it is.
      if (input.fileId) {
        await q.query(`update files set state = 'saved' where id = $1`, [input.fileId]);
      }
      const after = (await findIn(q, productId, savedId))!;
      await createAuditRepository(q).record({
        actor,
        action: id === null ? 'create' : 'update',
        entityType: 'simulation_download',
        entityId: savedId,
        // Installers are offered to every entitled organisation: the entry is global.
        organisationId: null,
        before,
        after,
      });
      return after;
    } catch (error) {
      if (isDuplicateVersion(error)) {
        throw badRequest({
          version: [DOWNLOAD_MESSAGES.duplicate(input.version, input.operatingSystem)],
        });
      }
      throw error;
    }
  }

  return {
    /** One page of a product's downloads; default ordering `-isActive`, newest version first. */
    list(productId: number, query: PagedQuery) {
      return pagedList<DownloadRow, SimulationDownload>(q, query, {
        from: FROM,
        select: SELECT,
        where: { sql: 'd.product_id = $1', params: [productId] },
        sortable: {
          id: 'd.id',
          // Numerically: 2.10.0 after 2.9.1.
          version: `string_to_array(d.version, '.')::int[]`,
          operatingSystem: 'd.operating_system',
          isActive: 'd.is_active',
        },
        searchable: ['d.version', 'd.operating_system'],
        defaultOrdering: '-isActive,-version',
        tieBreaker: 'd.id',
        map: toDownload,
      });
    },

    find(productId: number, id: number) {
      return findIn(q, productId, id);
    },

    /** null when the product does not exist. */
    create(productId: number, input: SimulationDownloadInput, actor: AuditActor) {
      return write(productId, input, actor, null);
    },

    /** null when the product has no such download. */
    update(productId: number, id: number, input: SimulationDownloadInput, actor: AuditActor) {
      return write(productId, input, actor, id);
    },

    async productExists(productId: number): Promise<boolean> {
      const res = await q.query('select 1 from products where id = $1', [productId]);
      return res.rowCount > 0;
    },

    /** The installer's bytes are stored: its size is known now (it was streamed). */
    async installerUploaded(id: string, size: number): Promise<void> {
      await q.query(
        `update files set state = 'uploaded', size = $2 where id = $1 and state = 'uploading'`,
        [id, size],
      );
    },
  };
}

export type SimulationDownloadRepository = ReturnType<typeof createSimulationDownloadRepository>;

import type { FileKind } from '@portal/contract';
import type { Queryable } from '../db/driver';

export interface StoredFile {
  id: string;
  kind: string;
  originalName: string;
  mimeType: string;
  storageKey: string;
  state: 'uploading' | 'uploaded' | 'saved';
  /** The uploader's organisation (null: none, or the uploader is gone). */
  ownerOrganisationId: number | null;
}

/** Where an installer is offered: its download's product, and whether that version is live. */
export interface InstallerUse {
  productId: number;
  isActive: boolean;
}

interface FileRow {
  id: string;
  kind: string;
  original_name: string;
  mime_type: string;
  storage_key: string;
  state: StoredFile['state'];
  owner_organisation_id: number | null;
}

/** A file row before its bytes are stored: state `uploading` until `markUploaded`. */
export interface NewFile {
  id: string;
  kind: FileKind | 'evidence-image';
  originalName: string;
  mimeType: string;
  size: number;
  storageKey: string;
  ownerId: string;
}

/** An uploaded users CSV as the bulk add reads it, locked until the transaction ends. */
export interface LockedUpload {
  id: string;
  storageKey: string;
  state: StoredFile['state'];
  ownerId: string | null;
}

export function createFileRepository(q: Queryable) {
  return {
    /**
     * The row goes in first, as `uploading`, so a crash while the bytes are written leaves a row
     * that says so (never downloadable) rather than bytes no row knows of.
     */
    async insertUploading(file: NewFile): Promise<void> {
      await q.query(
        `insert into files (id, kind, original_name, mime_type, size, storage_key, state, owner_id)
         values ($1, $2, $3, $4, $5, $6, 'uploading', $7)`,
        [
          file.id,
          file.kind,
          file.originalName,
          file.mimeType,
          file.size,
          file.storageKey,
          file.ownerId,
        ],
      );
    },

    /** The bytes are stored; in the caller's transaction (with its audit entry). */
    async markUploaded(id: string): Promise<void> {
      await q.query(`update files set state = 'uploaded' where id = $1 and state = 'uploading'`, [
        id,
      ]);
    },

    async remove(id: string): Promise<void> {
      await q.query('delete from files where id = $1', [id]);
    },

    /** The upload of `kind`, locked until the transaction ends, so that two bulk adds cannot both use it. */
    async lockUpload(id: string, kind: FileKind): Promise<LockedUpload | null> {
      const res = await q.query<{
        id: string;
        storage_key: string;
        state: StoredFile['state'];
        owner_id: string | null;
      }>(
        `select id::text as id, storage_key, state, owner_id::text as owner_id
           from files where id = $1 and kind = $2 for update`,
        [id, kind],
      );
      const row = res.rows[0];
      return row
        ? { id: row.id, storageKey: row.storage_key, state: row.state, ownerId: row.owner_id }
        : null;
    },

    /** The form that used the upload was saved (docs/requirements.md#file-states: uploaded → saved). */
    async markSaved(id: string): Promise<void> {
      await q.query(`update files set state = 'saved' where id = $1`, [id]);
    },

    /** The file if it exists and is of this kind; a file asked for under another kind is not found. */
    async findOfKind(id: string, kind: FileKind): Promise<StoredFile | null> {
      const res = await q.query<FileRow>(
        `select f.id, f.kind, f.original_name, f.mime_type, f.storage_key, f.state,
                u.organisation_id as owner_organisation_id
           from files f left join users u on u.id = f.owner_id
          where f.id = $1 and f.kind = $2`,
        [id, kind],
      );
      const row = res.rows[0];
      if (!row) return null;
      return {
        id: row.id,
        kind: row.kind,
        originalName: row.original_name,
        mimeType: row.mime_type,
        storageKey: row.storage_key,
        state: row.state,
        ownerOrganisationId: row.owner_organisation_id,
      };
    },

    /** The downloads an installer file is attached to (normally one). */
    async installerUses(fileId: string): Promise<InstallerUse[]> {
      const res = await q.query<{ product_id: number; is_active: boolean }>(
        'select product_id, is_active from simulation_downloads where file_id = $1',
        [fileId],
      );
      return res.rows.map((r) => ({ productId: r.product_id, isActive: r.is_active }));
    },
  };
}

export type FileRepository = ReturnType<typeof createFileRepository>;

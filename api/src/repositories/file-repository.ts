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

export function createFileRepository(db: Queryable) {
  return {
    /** The file if it exists and is of this kind; a file asked for under another kind is not found. */
    async findOfKind(id: string, kind: FileKind): Promise<StoredFile | null> {
      const res = await db.query<FileRow>(
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
      const res = await db.query<{ product_id: number; is_active: boolean }>(
        'select product_id, is_active from simulation_downloads where file_id = $1',
        [fileId],
      );
      return res.rows.map((r) => ({ productId: r.product_id, isActive: r.is_active }));
    },
  };
}

export type FileRepository = ReturnType<typeof createFileRepository>;

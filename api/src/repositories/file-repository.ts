import type { FileKind } from '@portal/contract';
import type { Queryable } from '../db/driver';

export interface StoredFile {
  id: string;
  kind: string;
  originalName: string;
  mimeType: string;
  storageKey: string;
  state: 'uploading' | 'uploaded' | 'saved';
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
}

export function createFileRepository(db: Queryable) {
  return {
    /** The file if it exists and is of this kind; a file asked for under another kind is not found. */
    async findOfKind(id: string, kind: FileKind): Promise<StoredFile | null> {
      const res = await db.query<FileRow>(
        `select id, kind, original_name, mime_type, storage_key, state
           from files where id = $1 and kind = $2`,
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

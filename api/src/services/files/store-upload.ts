import type { UploadedFile } from '@portal/contract';
import type { Db } from '../../db/driver';
import { type AuditActor, createAuditRepository } from '../../repositories/audit-repository';
import { createFileRepository, type NewFile } from '../../repositories/file-repository';
import type { Storage } from '../../storage/storage';
import { runUnitOfWork } from '../unit-of-work';

/**
 * Keeps a checked upload (users CSV, configuration file): its row first as `uploading`, then the
 * bytes, then `uploaded` with its audit entry in one unit of work. When any step fails, bytes and
 * row go again, so no row points at missing bytes and no bytes lie about without a row.
 */
export async function storeUpload(
  deps: { db: Db; storage: Storage },
  file: NewFile,
  data: Buffer,
  actor: AuditActor & { organisationId: number | null },
  contentType?: string,
): Promise<UploadedFile> {
  const files = createFileRepository(deps.db);
  await files.insertUploading(file);
  try {
    await deps.storage.put(file.storageKey, data, contentType);
    await runUnitOfWork(deps.db, async (uow) => {
      await createFileRepository(uow.q).markUploaded(file.id);
      await createAuditRepository(uow.q).record({
        actor,
        action: 'create',
        entityType: 'file',
        entityId: file.id,
        organisationId: actor.organisationId,
        after: { id: file.id, kind: file.kind, originalName: file.originalName, size: file.size },
      });
    });
  } catch (error) {
    await deps.storage.remove(file.storageKey).catch(() => undefined);
    await files.remove(file.id);
    throw error;
  }
  return {
    id: file.id,
    originalName: file.originalName,
    size: file.size,
    state: 'uploaded' as const,
  };
}

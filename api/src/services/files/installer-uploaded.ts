import type { Db } from '../../db/driver';
import { type AuditActor, createAuditRepository } from '../../repositories/audit-repository';
import { createFileRepository, type NewFile } from '../../repositories/file-repository';
import { createSimulationDownloadRepository } from '../../repositories/simulation-download-repository';
import { runUnitOfWork } from '../unit-of-work';

export interface StreamedInstaller {
  id: string;
  name: string;
  /** Known only now: the bytes were streamed to storage. */
  size: number;
}

/**
 * An installer's row, `uploading`, before its bytes stream to storage: a crash mid-stream leaves
 * a row the file cleanup finds, never bytes nobody knows of.
 */
export function installerUploadStarted(deps: { db: Db }, file: NewFile): Promise<void> {
  return createFileRepository(deps.db).insertUploading(file);
}

/** A refused or failed installer upload: its row goes (the route removes the bytes first). */
export function installerUploadDiscarded(deps: { db: Db }, fileId: string): Promise<void> {
  return createFileRepository(deps.db).remove(fileId);
}

/**
 * An installer's bytes are in storage: its row becomes `uploaded` with its size, audited as a
 * global file (installers serve every organisation), in one unit of work.
 */
export function installerUploaded(
  deps: { db: Db },
  file: StreamedInstaller,
  actor: AuditActor,
): Promise<void> {
  return runUnitOfWork(deps.db, async (uow) => {
    await createSimulationDownloadRepository(uow.q).installerUploaded(file.id, file.size);
    await createAuditRepository(uow.q).record({
      actor,
      action: 'create',
      entityType: 'file',
      entityId: file.id,
      organisationId: null,
      after: {
        id: file.id,
        kind: 'sim-installation-file',
        originalName: file.name,
        size: file.size,
      },
    });
  });
}

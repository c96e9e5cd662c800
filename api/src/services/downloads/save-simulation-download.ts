import type { SimulationDownload, SimulationDownloadInput } from '@portal/contract';
import type { Db } from '../../db/driver';
import type { AuditActor } from '../../repositories/audit-repository';
import { createSimulationDownloadRepository } from '../../repositories/simulation-download-repository';
import { runUnitOfWork } from '../unit-of-work';

/**
 * A global administrator adds or edits an installer version of a product: checked, its upload
 * marked saved and audited in one unit of work. null when the product (or the download) is unknown.
 */
export function createSimulationDownload(
  deps: { db: Db },
  productId: number,
  input: SimulationDownloadInput,
  actor: AuditActor,
): Promise<SimulationDownload | null> {
  return runUnitOfWork(deps.db, (uow) =>
    createSimulationDownloadRepository(uow.q).create(productId, input, actor),
  );
}

export function updateSimulationDownload(
  deps: { db: Db },
  productId: number,
  id: number,
  input: SimulationDownloadInput,
  actor: AuditActor,
): Promise<SimulationDownload | null> {
  return runUnitOfWork(deps.db, (uow) =>
    createSimulationDownloadRepository(uow.q).update(productId, id, input, actor),
  );
}

import { randomUUID } from 'node:crypto';
import { IMAGE_EXTENSIONS, type ImageType } from '../../lib/upload-rules';
import {
  createEvidenceRepository,
  type AddEvidenceResult,
  type EvidenceLimits,
  type NewEvidence,
} from '../../repositories/evidence-repository';
import type { Storage } from '../../storage/storage';
import type { SessionDeps } from './deps';
import { markingItem } from './mark-evidence';

export interface EvidenceImage {
  fileName: string;
  type: ImageType;
  data: Buffer;
}

/**
 * Stores one evidence of the simulator's: the image's bytes first, so a row never points at a
 * missing file, then the rows in one statement that checks the session, the evidence limit and
 * the storage quota under locks, and queues the image's marking (issue #23) for the outbox worker,
 * kicked once committed: marking is not the upload's to wait for (mark-evidence.ts). The bytes
 * are removed again when the rows are not written.
 */
export async function submitEvidence(
  deps: Pick<SessionDeps, 'db'> & { storage: Storage; outboxWorker: { kick(): void } },
  evidence: Omit<NewEvidence, 'image'>,
  image: EvidenceImage | null,
  limits: EvidenceLimits,
): Promise<AddEvidenceResult> {
  let stored: NewEvidence['image'] = null;
  if (image) {
    const id = randomUUID();
    const extension = IMAGE_EXTENSIONS[image.type][0] ?? 'bin';
    stored = {
      id,
      originalName: image.fileName,
      mimeType: image.type,
      size: image.data.length,
      storageKey: `evidence/${evidence.sessionUuid}/${id}.${extension}`,
    };
    await deps.storage.put(stored.storageKey, image.data);
  }
  let result: AddEvidenceResult;
  try {
    result = await createEvidenceRepository(deps.db).add(
      { ...evidence, image: stored },
      limits,
      markingItem(evidence.sessionUuid),
    );
  } catch (error) {
    if (stored) await deps.storage.remove(stored.storageKey);
    throw error;
  }
  if (!result.ok && stored) await deps.storage.remove(stored.storageKey);
  if (result.ok && result.markingPending) deps.outboxWorker.kick();
  return result;
}

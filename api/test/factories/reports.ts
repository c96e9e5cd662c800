import { randomBytes, randomUUID } from 'node:crypto';
import { ANALYSIS_STATUS, type EvidenceData } from '@portal/contract';
import type { Queryable } from '../../src/db/driver';
import type { Storage } from '../../src/storage/local-storage';

/** A 1×1 PNG, so stored evidence images are real images. */
export const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

export const XRAY_DATA: EvidenceData = {
  meta: { type: 'xray_image' },
  settings: { projection: 'AP' },
  console: { exposureIndex: 320 },
  tube: { kV: 60, mAs: 4, sidCm: 110 },
  dose: { dapMGyCm2: 0.3 },
};

export interface EvidenceSpec {
  practiceActivity?: string;
  analysisStatus?: number;
  analysis?: string | null;
  /** Store a PNG for it (needs `storage`). */
  image?: boolean;
}

export interface ReportSpec {
  userId: string;
  /** Product code; the first product of the catalogue by default. */
  product?: string;
  /** Display name of a leaf category of the product to launch; null = no category. */
  category?: string | null;
  configuration?: string;
  status?: 'not_started' | 'in_progress' | 'complete' | 'closed';
  completedAt?: Date;
  reportDetails?: Record<string, unknown> | null;
  evidence?: EvidenceSpec[];
  storage?: Storage;
}

export interface CreatedReport {
  uuid: string;
  id: number;
  evidenceIds: number[];
}

/**
 * A simulation session with evidence written straight to the database, as the simulator routes
 * would have left it, so report tests do not depend on the launch loop.
 */
export async function createReport(db: Queryable, spec: ReportSpec): Promise<CreatedReport> {
  const product = await db.query<{ id: number; code: string }>(
    spec.product
      ? 'select id, code from products where code = $1'
      : 'select id, code from products where $1::text is null order by sort, id limit 1',
    [spec.product ?? null],
  );
  const productRow = product.rows[0];
  if (!productRow) throw new Error(`No product ${spec.product ?? '(any)'}`);
  let categoryId: number | null = null;
  let configuration = spec.configuration ?? `${productRow.code}.test`;
  if (spec.category !== null) {
    const category = await db.query<{ id: number; simulation_configuration: string }>(
      `select id, simulation_configuration from product_categories
        where product_id = $1 and simulation_configuration is not null
          and ($2::text is null or display_name = $2)
        order by sort, id limit 1`,
      [productRow.id, spec.category ?? null],
    );
    const row = category.rows[0];
    if (!row) throw new Error(`No leaf category ${spec.category ?? '(any)'} of ${productRow.code}`);
    categoryId = row.id;
    configuration = spec.configuration ?? row.simulation_configuration;
  }
  const uuid = randomUUID();
  const status = spec.status ?? 'complete';
  const completedAt = spec.completedAt ?? new Date();
  const session = await db.query<{ id: number }>(
    `insert into simulation_sessions (uuid, user_id, product_id, category_id, configuration, mode,
       token_hash, status, report_details, started_at, completed_at, closed_at)
     values ($1, $2, $3, $4, $5, 'Desktop', $6, $7, $8, $9, $10, $11)
     returning id`,
    [
      uuid,
      spec.userId,
      productRow.id,
      categoryId,
      configuration,
      randomBytes(32).toString('hex'),
      status,
      spec.reportDetails === undefined
        ? { summary: 'Two images captured.', score: 80 }
        : spec.reportDetails,
      new Date(completedAt.getTime() - 60_000),
      status === 'complete' || status === 'closed' ? completedAt : null,
      status === 'closed' ? completedAt : null,
    ],
  );
  const evidenceIds: number[] = [];
  for (const [position, item] of (spec.evidence ?? []).entries()) {
    let fileId: string | null = null;
    if (item.image) {
      if (!spec.storage) throw new Error('An evidence image needs `storage`');
      fileId = randomUUID();
      const storageKey = `evidence/${uuid}/${position}.png`;
      await spec.storage.put(storageKey, PNG_1X1);
      await db.query(
        `insert into files (id, kind, original_name, mime_type, size, storage_key, state, owner_id)
         values ($1, 'evidence-image', $2, 'image/png', $3, $4, 'saved', $5)`,
        [fileId, `${position}.png`, PNG_1X1.length, storageKey, spec.userId],
      );
    }
    const analysed =
      (item.analysisStatus ?? ANALYSIS_STATUS.notAnalysed) !== ANALYSIS_STATUS.notAnalysed;
    const res = await db.query<{ id: number }>(
      `insert into evidence (session_uuid, position, practice_activity, image_file_id, evidence_data,
         analysis_status_id, analysis, analysed_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8) returning id`,
      [
        uuid,
        position,
        item.practiceActivity ?? `Image ${position + 1}`,
        fileId,
        XRAY_DATA,
        item.analysisStatus ?? ANALYSIS_STATUS.notAnalysed,
        item.analysis ?? null,
        analysed ? new Date() : null,
      ],
    );
    evidenceIds.push(res.rows[0]!.id);
  }
  return { uuid, id: session.rows[0]!.id, evidenceIds };
}

/** Removes every session (and so every report and its evidence) between tests. */
export async function deleteAllReports(db: Queryable): Promise<void> {
  await db.query('delete from simulation_sessions');
}

import type { EvidenceSubmission, SessionStatusValue } from '@portal/contract';
import type { Queryable } from '../db/driver';
import { prepared } from '../db/prepared';

export interface EvidenceImageFile {
  id: string;
  originalName: string;
  mimeType: string;
  size: number;
  storageKey: string;
}

export interface NewEvidence {
  sessionUuid: string;
  /** The session's learner, who owns the image and whose storage quota it counts against. */
  userId: string;
  submission: EvidenceSubmission;
  /** Already stored under `storageKey`; its `files` row is written with the evidence. */
  image: EvidenceImageFile | null;
}

export type AddEvidenceResult =
  /** `markingPending`: an X-ray image the session's marking scheme marks, not marked yet. */
  | { ok: true; id: number; markingPending: boolean }
  | { ok: false; reason: 'not_in_progress'; status: SessionStatusValue | null }
  | { ok: false; reason: 'limit' }
  | { ok: false; reason: 'storage_quota' };

/**
 * A simulator that loops cannot fill the database or the disk: a session holds at most
 * `maxPerSession` evidence, and a user's files at most `maxStoredBytes` bytes.
 */
export interface EvidenceLimits {
  maxPerSession: number;
  maxStoredBytes: number;
}

/** `add` needs a transaction (its row locks); the reads run on the pool as well. */
export function createEvidenceRepository(q: Queryable) {
  return {
    async countFor(sessionUuid: string): Promise<number> {
      const res = await q.query<{ count: number }>(
        prepared('select count(*)::int as count from evidence where session_uuid = $1'),
        [sessionUuid],
      );
      return res.rows[0]?.count ?? 0;
    },

    /** Bytes of every file the user owns (evidence images and uploads; not installers). */
    async storedBytesOf(userId: string): Promise<number> {
      const res = await q.query<{ bytes: string }>(
        // Installers an administrator uploads serve everyone; they are not the user's own files.
        prepared(`select coalesce(sum(size), 0)::text as bytes from files
          where owner_id = $1 and kind <> 'sim-installation-file'`),
        [userId],
      );
      return Number(res.rows[0]?.bytes ?? 0);
    },

    /**
     * The user's row is locked so that two uploads of one learner cannot both pass the storage
     * quota (user before session, the order session creation uses too), and the session row so
     * two submissions cannot take the same position and the session cannot complete between the
     * status check and the insert. Nothing is written unless everything is.
     */
    async add(evidence: NewEvidence, limits: EvidenceLimits): Promise<AddEvidenceResult> {
      await q.query(prepared('select 1 from users where id = $1 for no key update'), [
        evidence.userId,
      ]);
      const session = await q.query<{ status: SessionStatusValue; user_id: string }>(
        prepared('select status, user_id from simulation_sessions where uuid = $1 for update'),
        [evidence.sessionUuid],
      );
      const row = session.rows[0];
      if (row?.status !== 'in_progress') {
        return { ok: false, reason: 'not_in_progress', status: row?.status ?? null } as const;
      }
      const counted = await q.query<{ count: number }>(
        prepared('select count(*)::int as count from evidence where session_uuid = $1'),
        [evidence.sessionUuid],
      );
      const position = counted.rows[0]?.count ?? 0;
      if (position >= limits.maxPerSession) return { ok: false, reason: 'limit' } as const;

      const { image } = evidence;
      if (image) {
        const stored = await q.query<{ bytes: string }>(
          prepared(`select coalesce(sum(size), 0)::text as bytes from files
            where owner_id = $1 and kind <> 'sim-installation-file'`),
          [row.user_id],
        );
        if (Number(stored.rows[0]?.bytes ?? 0) + image.size > limits.maxStoredBytes) {
          return { ok: false, reason: 'storage_quota' } as const;
        }
        await q.query(
          prepared(`insert into files (id, kind, original_name, mime_type, size, storage_key, state, owner_id)
           values ($1, 'evidence-image', $2, $3, $4, $5, 'saved', $6)`),
          [image.id, image.originalName, image.mimeType, image.size, image.storageKey, row.user_id],
        );
      }
      // Whether the outbox worker has to mark it (X-ray images of a configuration with a marking
      // scheme, as mark-evidence.ts marks them), decided in the insert itself: no extra round trip.
      const inserted = await q.query<{ id: number; marking_pending: boolean }>(
        prepared(`insert into evidence (session_uuid, position, practice_activity, image_file_id, evidence_data,
                               marking_pending)
         values ($1, $2, $3, $4, $5::jsonb,
                 $6::text = 'xray_image' and exists (
                   select 1 from simulation_sessions s
                     join product_configurations c
                       on c.product_id = s.product_id
                      and lower(c.configuration_name) = lower(s.configuration)
                    where s.uuid = $1 and c.marking_scheme is not null))
         returning id, marking_pending`),
        [
          evidence.sessionUuid,
          position,
          evidence.submission.practiceActivity,
          image?.id ?? null,
          JSON.stringify(evidence.submission.evidenceData),
          evidence.submission.evidenceData.meta.type,
        ],
      );
      const added = inserted.rows[0];
      if (added === undefined) throw new Error('evidence insert returned no id');
      return { ok: true, id: added.id, markingPending: added.marking_pending } as const;
    },
  };
}

export type EvidenceRepository = ReturnType<typeof createEvidenceRepository>;

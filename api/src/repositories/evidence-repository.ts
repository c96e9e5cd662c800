import type { EvidenceSubmission, SessionStatusValue } from '@portal/contract';
import type { Queryable } from '../db/driver';
import { prepared } from '../db/prepared';
import { storedPayload, type OutboxItem } from './outbox-repository';

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

interface AddEvidenceRow {
  outcome: 'added' | 'not_in_progress' | 'limit' | 'storage_quota';
  current_status: SessionStatusValue | null;
  new_id: number | null;
  pending: boolean | null;
}

export function createEvidenceRepository(q: Queryable) {
  return {
    /**
     * How many evidence the session holds and how many bytes of the user's files count against
     * their quota, in one statement: the upload's cheap checks before its bytes are written.
     */
    async usage(sessionUuid: string, userId: string): Promise<{ count: number; bytes: number }> {
      const res = await q.query<{ count: number; bytes: string }>(
        // user_stored_bytes (migration 0043): the files that count against the quota.
        prepared(`select (select count(*)::int from evidence where session_uuid = $1) as count,
                         user_stored_bytes($2)::text as bytes`),
        [sessionUuid, userId],
      );
      const row = res.rows[0];
      return { count: row?.count ?? 0, bytes: Number(row?.bytes ?? 0) };
    },

    /**
     * Checks and writes in one statement (migration 0043's `add_evidence`, its own transaction):
     * the user's row is locked so that two uploads of one learner cannot both pass the storage
     * quota (user before session, the order session creation uses too), and the session row so
     * two submissions cannot take the same position and the session cannot complete between the
     * status check and the insert. An X-ray image the session's marking scheme marks is queued
     * as `marking` plus its `evidenceId`, and the session's score is cleared while it waits.
     * Nothing is written unless everything is.
     */
    async add(
      evidence: NewEvidence,
      limits: EvidenceLimits,
      marking: OutboxItem,
    ): Promise<AddEvidenceResult> {
      const { image, submission } = evidence;
      const res = await q.query<AddEvidenceRow>(
        prepared(`select outcome, current_status, new_id, pending
          from add_evidence($1::uuid, $2::uuid, $3::text, $4::jsonb, $5::text, $6::uuid, $7::text,
                            $8::text, $9::integer, $10::text, $11::integer, $12::bigint, $13::text,
                            $14::text, $15::jsonb)`),
        [
          evidence.sessionUuid,
          evidence.userId,
          submission.practiceActivity,
          JSON.stringify(submission.evidenceData),
          submission.evidenceData.meta.type,
          image?.id ?? null,
          image?.originalName ?? null,
          image?.mimeType ?? null,
          image?.size ?? null,
          image?.storageKey ?? null,
          limits.maxPerSession,
          limits.maxStoredBytes,
          marking.kind,
          marking.key,
          JSON.stringify(storedPayload(marking.payload)),
        ],
      );
      const row = res.rows[0];
      switch (row?.outcome) {
        case 'added':
          if (row.new_id === null) throw new Error('add_evidence added no id');
          return { ok: true, id: row.new_id, markingPending: row.pending === true };
        case 'not_in_progress':
          return { ok: false, reason: 'not_in_progress', status: row.current_status };
        case 'limit':
          return { ok: false, reason: 'limit' };
        case 'storage_quota':
          return { ok: false, reason: 'storage_quota' };
        default:
          throw new Error(`add_evidence answered ${String(row?.outcome)}`);
      }
    },
  };
}

export type EvidenceRepository = ReturnType<typeof createEvidenceRepository>;

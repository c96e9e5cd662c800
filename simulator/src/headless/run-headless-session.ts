import { LESSON_PARTS_PER_LESSON, type SessionStatus, type SimulatorSession, type TubeSettings } from '@portal/contract';
import { captureNext, defaultTube, exposureScore, planFor, reportSummary, type CaptureSummary, type SessionPlan } from '@portal/xray';
import { createSessionClient } from '../session-client';

export interface HeadlessSessionOptions {
  /** Origin of the API, e.g. http://localhost:3000. */
  apiUrl: string;
  /** The session token from `POST /api/v1/product/{id}/session`. */
  token: string;
  /**
   * Images to take (default 3). For a lesson leaf it counts lesson parts, rounded up to whole
   * lessons of LESSON_PARTS_PER_LESSON parts.
   */
  images?: number;
  /** Technique for the images; unset values take the body area's defaults. */
  tube?: Partial<TubeSettings>;
  /** Complete the session at the end (default true). */
  complete?: boolean;
  /** Called after each evidence is accepted. */
  onEvidence?: (evidence: HeadlessEvidence) => void;
}

export interface HeadlessEvidence {
  id: number;
  summary: CaptureSummary;
  /** Size of the submitted PNG, bytes; 0 for lesson parts. */
  imageBytes: number;
}

export interface HeadlessSessionResult {
  session: SimulatorSession;
  plan: SessionPlan;
  evidence: HeadlessEvidence[];
  /** The report summary sent on completion (also computed when not completing). */
  summary: string;
  /** The completion answer; null with `complete: false`. */
  completed: SessionStatus | null;
}

/** Parts to record for `images` requested on a lesson leaf: whole lessons only. */
function lessonPartsFor(images: number): number {
  return Math.ceil(images / LESSON_PARTS_PER_LESSON) * LESSON_PARTS_PER_LESSON;
}

/**
 * The whole simulator side of a session without a browser: join, capture, complete. Used by the
 * CLI, e2e tests and load tests. Evidence continues the session's count, so a second run on an
 * open session adds to it.
 */
export async function runHeadlessSession(options: HeadlessSessionOptions): Promise<HeadlessSessionResult> {
  const images = options.images ?? 3;
  if (!Number.isInteger(images) || images < 0) throw new RangeError(`images must be a whole number ≥ 0, got ${images}`);
  const client = createSessionClient({ apiUrl: options.apiUrl, token: options.token });
  const session = await client.join();
  const plan = planFor(session);
  const tube: TubeSettings = { ...defaultTube(plan), ...options.tube };
  const count = plan.kind === 'lesson' ? lessonPartsFor(images) : images;
  const lessonCount = Math.max(1, Math.ceil((session.evidenceCount + count) / LESSON_PARTS_PER_LESSON));

  const evidence: HeadlessEvidence[] = [];
  for (let n = 0; n < count; n++) {
    const sequence = session.evidenceCount + n;
    const capture = captureNext(session, plan, sequence, tube, lessonCount);
    const created = await client.submitEvidence(capture.submission, capture.image);
    const item = { id: created.id, summary: capture.summary, imageBytes: capture.image?.length ?? 0 };
    evidence.push(item);
    options.onEvidence?.(item);
  }

  const summary = reportSummary(plan, session.evidenceCount + count);
  let completed: SessionStatus | null = null;
  if (options.complete ?? true) {
    const score = session.evidenceCount === 0 ? exposureScore(evidence.map((e) => e.summary)) : null;
    completed = await client.complete({ reportDetails: { summary, ...(score === null ? {} : { score }) } });
  }
  return { session, plan, evidence, summary, completed };
}

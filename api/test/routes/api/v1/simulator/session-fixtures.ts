import assert from 'node:assert/strict';
import type { CreatedSession, EvidenceSubmission, SimulationMode } from '@portal/contract';
import type { Queryable } from '../../../../../src/db/driver';
import { account, authHeader, xsrfHeaders, type TestApp } from '../../../../helper';

export const learner = account('learner', 'Demo Hospital');
export const educator = account('educator', 'Demo Hospital');
export const otherLearner = account('learner', 'Other College');
export const sysadmin = account('sys admin');

/** Headers of an unsafe call by a signed-in user. */
export async function userHeaders(sub: string) {
  return { ...(await authHeader(sub)), ...xsrfHeaders() };
}

export function sessionHeader(token: string) {
  return { authorization: `Session ${token}` };
}

export async function productId(db: Queryable, code: string): Promise<number> {
  const res = await db.query<{ id: number }>('select id from products where code = $1', [code]);
  const id = res.rows[0]?.id;
  assert.ok(id, `product ${code} is seeded`);
  return id;
}

export async function leafId(db: Queryable, configuration: string): Promise<number> {
  const res = await db.query<{ id: number }>(
    'select id from product_categories where simulation_configuration = $1',
    [configuration],
  );
  const id = res.rows[0]?.id;
  assert.ok(id, `leaf ${configuration} is seeded`);
  return id;
}

/** How many rows each table of the loop holds, to prove a refused call wrote nothing. */
export async function rowCounts(db: Queryable) {
  const res = await db.query<{ sessions: number; evidence: number; files: number }>(
    `select (select count(*)::int from simulation_sessions) as sessions,
            (select count(*)::int from evidence) as evidence,
            (select count(*)::int from files) as files`,
  );
  return res.rows[0];
}

export interface StartedSession extends CreatedSession {
  productId: number;
}

/** A session created through the API, as the launch screen does. */
export async function createSession(
  t: TestApp,
  options: {
    sub?: string;
    product?: string;
    configuration?: string;
    mode?: SimulationMode;
    /** A launch of the learner's learning platform the session belongs to (its grade goes there). */
    ltiLaunchId?: string;
  } = {},
): Promise<StartedSession> {
  const product = await productId(t.db, options.product ?? 'radiography');
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/v1/product/${product}/session`,
    headers: await userHeaders(options.sub ?? learner.sub),
    payload: {
      configuration: options.configuration ?? 'radiography.lower-limb.knee',
      mode: options.mode ?? 'Desktop',
      ...(options.ltiLaunchId ? { ltiLaunchId: options.ltiLaunchId } : {}),
    },
  });
  assert.equal(res.statusCode, 201, res.body);
  return { ...res.json<CreatedSession>(), productId: product };
}

export async function join(t: TestApp, token: string) {
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/simulator/session/join',
    headers: sessionHeader(token),
  });
}

export async function complete(t: TestApp, token: string, payload: unknown = {}) {
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/simulator/session/complete',
    headers: sessionHeader(token),
    payload: payload as object,
  });
}

/** A 1×1 PNG. */
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
/** The start of a JPEG (SOI + APP0); only the signature matters to the API. */
export const JPEG = Buffer.concat([
  Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]),
  Buffer.from('JFIF\0', 'binary'),
  Buffer.alloc(64, 1),
]);

export function xrayEvidence(overrides: Partial<EvidenceSubmission> = {}): EvidenceSubmission {
  return {
    practiceActivity: 'Knee AP',
    evidenceData: {
      meta: { type: 'xray_image' },
      settings: { bodyArea: 'knee', projection: 'AP', patientPosition: 'supine' },
      console: { exposureIndex: 320, collimation: true },
      tube: { kV: 65, mAs: 4, sidCm: 110 },
      dose: { dapMGyCm2: 12.5, entranceDoseUGy: 310 },
    },
    ...overrides,
  };
}

/**
 * A knee image from a simulator that measures what the portal marks (issue #23). The demo knee
 * scheme (api/src/demo/marking-schemes.ts: weights centring 20, collimation 15, kV 10, mAs 10,
 * dose 20, exposure index 15, repeats 10) marks it 100 % as it is; each override below costs
 * what its preset says.
 */
export function markedKnee(
  over: {
    centringErrorMm?: number;
    collimationRatio?: number;
    deviationIndex?: number;
    dapMGyCm2?: number;
  } = {},
  practiceActivity = 'Knee AP (left)',
): EvidenceSubmission {
  return {
    practiceActivity,
    evidenceData: {
      meta: { type: 'xray_image' },
      settings: { bodyArea: 'knee', projection: 'AP', side: 'left' },
      console: {},
      tube: { kV: 65, mAs: 5, sidCm: 110 },
      dose: { dapMGyCm2: over.dapMGyCm2 ?? 55 },
      quality: {
        centringErrorMm: over.centringErrorMm ?? 4,
        collimationRatio: over.collimationRatio ?? 1.1,
        deviationIndex: over.deviationIndex ?? 0.3,
      },
    },
  };
}
/** Marked 90 %: centred 15 mm off (half of centring's 20). */
export const KNEE_90 = markedKnee({ centringErrorMm: 15 });
/** Marked 80 %: a dose far above the reference level (none of dose's 20). */
export const KNEE_80 = markedKnee({ dapMGyCm2: 500 });
/** Marked 75 %: centred 15 mm off (−10) and overexposed, deviation index +4 (−15). */
export const KNEE_75 = markedKnee({ centringErrorMm: 15, deviationIndex: 4 });

/**
 * Submits these images to the joined session, answering their ids. The outbox worker marks them
 * after each upload's answer (services/sessions/mark-evidence.ts); this waits for it, as a
 * simulator's next step would take longer than marking does, unless `awaitMarking` is false.
 */
export async function submitImages(
  t: TestApp,
  token: string,
  images: readonly EvidenceSubmission[],
  { awaitMarking = true }: { awaitMarking?: boolean } = {},
): Promise<number[]> {
  const ids: number[] = [];
  for (const image of images) {
    const res = await submitEvidence(t, token, [dataPart(image), imagePart()]);
    assert.equal(res.statusCode, 201, res.body);
    ids.push(res.json<{ id: number }>().id);
  }
  if (awaitMarking) await t.app.outboxWorker.idle();
  return ids;
}

export function lessonEvidence(partIndex = 0): EvidenceSubmission {
  return {
    practiceActivity: 'Distance and time',
    evidenceData: {
      meta: { type: 'rs_lesson_part' },
      settings: { procedure: 'distance-and-time' },
      console: {},
      tube: { kV: 80, mAs: 2, sidCm: 100 },
      dose: { dapMGyCm2: 40 },
      lesson: {
        id: 'lesson-1',
        index: 0,
        partIndex,
        count: 1,
        partId: partIndex === 0 ? 'near' : 'far',
        doseTime: 60,
        doses: { eye: 12, chest: 20, hip: 8 },
      },
    },
  };
}

export type FormPart =
  /** A text field; with `type`, the field carries that Content-Type (FormData cannot send one). */
  | { name: string; value: string; type?: string }
  | { name: string; fileName: string; type: string; data: Buffer };

/** A multipart body written by hand, for parts FormData cannot make or names it would escape. */
export function rawMultipart(parts: readonly FormPart[]) {
  const boundary = `----portal-test-${Math.random().toString(36).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = `Content-Disposition: form-data; name="${part.name}"`;
    if ('data' in part) {
      chunks.push(
        Buffer.from(
          `--${boundary}\r\n${disposition}; filename="${part.fileName}"\r\nContent-Type: ${part.type}\r\n\r\n`,
          'utf8',
        ),
        part.data,
        Buffer.from('\r\n'),
      );
    } else {
      const type = part.type ? `\r\nContent-Type: ${part.type}` : '';
      chunks.push(Buffer.from(`--${boundary}\r\n${disposition}${type}\r\n\r\n${part.value}\r\n`));
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

/** A multipart body encoded by the platform's own FormData, as a real client would send it. */
export async function multipart(parts: readonly FormPart[]) {
  if (parts.some((part) => !('data' in part) && part.type)) return rawMultipart(parts);
  const form = new FormData();
  for (const part of parts) {
    if ('data' in part) {
      form.append(part.name, new Blob([part.data], { type: part.type }), part.fileName);
    } else {
      form.append(part.name, part.value);
    }
  }
  const request = new Request('http://api.test/', { method: 'POST', body: form });
  return {
    payload: Buffer.from(await request.arrayBuffer()),
    contentType: request.headers.get('content-type') ?? '',
  };
}

export async function submitEvidence(t: TestApp, token: string, parts: readonly FormPart[]) {
  const body = await multipart(parts);
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/simulator/session/evidence',
    headers: { ...sessionHeader(token), 'content-type': body.contentType },
    payload: body.payload,
  });
}

export const dataPart = (submission: unknown): FormPart => ({
  name: 'data',
  value: JSON.stringify(submission),
});

export const imagePart = (data = PNG, fileName = 'knee-ap.png', type = 'image/png'): FormPart => ({
  name: 'image',
  fileName,
  type,
  data,
});

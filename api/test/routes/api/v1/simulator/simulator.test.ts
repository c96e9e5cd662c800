import { readdir, readFile } from 'node:fs/promises';
import { join as joinPath } from 'node:path';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { CloseSessionResult, SimulatorSession } from '@portal/contract';
import { accessOf } from '../../../../../src/plugins/app/access';
import { authHeader, buildTestApp, TEST_STORAGE_DIR, type TestApp } from '../../../../helper';
import {
  complete,
  createSession,
  dataPart,
  imagePart,
  JPEG,
  join,
  learner,
  lessonEvidence,
  PNG,
  rowCounts,
  sessionHeader,
  submitEvidence,
  userHeaders,
  xrayEvidence,
  type FormPart,
  type StartedSession,
} from './session-fixtures';

const INVALID_TOKEN = { detail: 'Invalid session token.' };
const NOT_OPEN = { detail: 'The session is no longer open.' };
const JOIN_FIRST = { detail: 'Join the session first.' };

/** Stored evidence image files of one session on disk. */
async function storedFiles(uuid: string): Promise<string[]> {
  try {
    return (await readdir(joinPath(TEST_STORAGE_DIR, 'evidence', uuid))).sort();
  } catch {
    return [];
  }
}

describe('simulator calls', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  const joined = async (options?: Parameters<typeof createSession>[1]) => {
    const session = await createSession(t, options);
    const res = await join(t, session.token);
    assert.equal(res.statusCode, 200, res.body);
    return session;
  };
  const ownerCall = async (session: StartedSession, path: 'status' | 'close') =>
    t.app.inject({
      method: path === 'status' ? 'GET' : 'POST',
      url: `/api/v1/product/${session.productId}/session/${session.uuid}/${path}`,
      headers: await userHeaders(learner.sub),
    });

  describe('authentication by session token', () => {
    test('simulator routes declare the session token as their credential', async () => {
      await t.app.ready();
      const simulator = t.app.routeAccess.filter((r) => r.url.startsWith('/api/v1/simulator/'));
      assert.deepEqual(simulator.map((r) => `${r.method} ${r.url} ${String(r.access)}`).sort(), [
        'POST /api/v1/simulator/session/complete session',
        'POST /api/v1/simulator/session/evidence session',
        'POST /api/v1/simulator/session/join session',
      ]);
      assert.equal(accessOf({ sessionToken: true }), 'session');
      assert.equal(accessOf({ sessionToken: true, permissions: 'authenticated' }), null);
      assert.equal(accessOf({ sessionToken: true, public: true }), null);
      assert.equal(accessOf({ sessionToken: false }), null);
    });

    test('an unknown, malformed or missing token is refused with 401 on every call', async () => {
      const session = await createSession(t);
      const headers: Array<Record<string, string>> = [
        sessionHeader('A'.repeat(43)),
        sessionHeader(session.token.slice(1)),
        { authorization: `Bearer ${session.token}` },
        { authorization: `Session ${session.token} extra` },
        {},
        // A learner's own JWT is not a simulator credential.
        await authHeader(learner.sub),
      ];
      for (const path of ['join', 'evidence', 'complete']) {
        for (const h of headers) {
          const res = await t.app.inject({
            method: 'POST',
            url: `/api/v1/simulator/session/${path}`,
            headers: h,
            payload: {},
          });
          assert.equal(res.statusCode, 401, `${path} ${JSON.stringify(h)}`);
          assert.deepEqual(res.json(), INVALID_TOKEN);
          assert.equal(res.headers['www-authenticate'], 'Session');
        }
      }
      const row = await t.db.query('select status from simulation_sessions where uuid = $1', [
        session.uuid,
      ]);
      assert.deepEqual(row.rows, [{ status: 'not_started' }]);
    });

    test('the scheme name is case-insensitive, as HTTP says', async () => {
      const session = await createSession(t);
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/simulator/session/join',
        headers: { authorization: `session ${session.token}` },
      });
      assert.equal(res.statusCode, 200);
    });
  });

  describe('join', () => {
    test('starts the session and says what to simulate for whom', async () => {
      const session = await createSession(t);
      const res = await join(t, session.token);
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.json<SimulatorSession>(), {
        uuid: session.uuid,
        status: 'in_progress',
        mode: 'Desktop',
        configuration: 'radiography.lower-limb.knee',
        product: { id: session.productId, code: 'radiography', name: 'Radiography' },
        categoryName: 'Knee',
        learner: { firstName: learner.firstName, lastName: learner.lastName },
        evidenceCount: 0,
      });
      assert.deepEqual((await ownerCall(session, 'status')).json(), {
        uuid: session.uuid,
        status: 'in_progress',
      });
    });

    test('joining again resumes: same start time, evidence so far counted', async () => {
      const session = await joined();
      const started = async () =>
        (
          await t.db.query<{ started_at: Date }>(
            'select started_at from simulation_sessions where uuid = $1',
            [session.uuid],
          )
        ).rows[0]?.started_at;
      const first = await started();
      assert.ok(first);
      assert.equal(
        (await submitEvidence(t, session.token, [dataPart(xrayEvidence()), imagePart()]))
          .statusCode,
        201,
      );
      const again = await join(t, session.token);
      assert.equal(again.statusCode, 200);
      assert.equal(again.json<SimulatorSession>().evidenceCount, 1);
      assert.deepEqual(await started(), first);
    });
  });

  describe('evidence', () => {
    test('stores a PNG with its evidence, in capture order', async () => {
      const session = await joined();
      const res = await submitEvidence(t, session.token, [dataPart(xrayEvidence()), imagePart()]);
      assert.equal(res.statusCode, 201, res.body);
      const { id } = res.json<{ id: number }>();
      const row = await t.db.query<{
        position: number;
        practice_activity: string;
        evidence_data: unknown;
        analysis_status_id: number;
        kind: string;
        original_name: string;
        mime_type: string;
        size: number;
        state: string;
        owner_id: string;
        storage_key: string;
      }>(
        `select e.position, e.practice_activity, e.evidence_data, e.analysis_status_id,
                f.kind, f.original_name, f.mime_type, f.size::int as size, f.state, f.owner_id, f.storage_key
           from evidence e join files f on f.id = e.image_file_id
          where e.id = $1 and e.session_uuid = $2`,
        [id, session.uuid],
      );
      const stored = row.rows[0];
      assert.ok(stored);
      assert.deepEqual(
        { ...stored, storage_key: undefined },
        {
          position: 0,
          practice_activity: 'Knee AP',
          evidence_data: xrayEvidence().evidenceData,
          analysis_status_id: 22001,
          kind: 'evidence-image',
          original_name: 'knee-ap.png',
          mime_type: 'image/png',
          size: PNG.length,
          state: 'saved',
          owner_id: learner.sub,
          storage_key: undefined,
        },
      );
      assert.match(
        stored.storage_key,
        new RegExp(`^evidence/${session.uuid}/[0-9a-f-]{36}\\.png$`),
      );
      assert.deepEqual(await readFile(joinPath(TEST_STORAGE_DIR, stored.storage_key)), PNG);

      const second = await submitEvidence(t, session.token, [
        dataPart(xrayEvidence({ practiceActivity: 'Knee lateral' })),
        imagePart(JPEG, 'knee-lateral.JPEG', 'image/jpeg'),
      ]);
      assert.equal(second.statusCode, 201, second.body);
      const positions = await t.db.query<{ position: number; storage_key: string }>(
        `select e.position, f.storage_key from evidence e join files f on f.id = e.image_file_id
          where e.session_uuid = $1 order by e.position`,
        [session.uuid],
      );
      assert.deepEqual(
        positions.rows.map((r) => r.position),
        [0, 1],
      );
      assert.match(positions.rows[1]?.storage_key ?? '', /\.jpg$/);
      assert.equal((await storedFiles(session.uuid)).length, 2);
    });

    test('a lesson part needs no image', async () => {
      const session = await joined({
        product: 'radiation-safety',
        configuration: 'radiation-safety.lesson.distance-and-time',
      });
      for (const part of [0, 1]) {
        const res = await submitEvidence(t, session.token, [dataPart(lessonEvidence(part))]);
        assert.equal(res.statusCode, 201, res.body);
      }
      const rows = await t.db.query<{ image_file_id: string | null; part: number }>(
        `select image_file_id, (evidence_data->'lesson'->>'partIndex')::int as part
           from evidence where session_uuid = $1 order by position`,
        [session.uuid],
      );
      assert.deepEqual(rows.rows, [
        { image_file_id: null, part: 0 },
        { image_file_id: null, part: 1 },
      ]);
    });

    test('the data field may also be a text field typed application/json', async () => {
      const session = await joined();
      const res = await submitEvidence(t, session.token, [
        { name: 'data', value: JSON.stringify(xrayEvidence()), type: 'application/json' },
        imagePart(),
      ]);
      assert.equal(res.statusCode, 201, res.body);
    });

    test('before the simulator joined, evidence is a conflict and nothing is written', async () => {
      const session = await createSession(t);
      await t.app.outboxWorker.idle(); // earlier images marked after their answer settle first
      const counts = await rowCounts(t.db);
      const res = await submitEvidence(t, session.token, [dataPart(xrayEvidence()), imagePart()]);
      assert.equal(res.statusCode, 409);
      assert.deepEqual(res.json(), JOIN_FIRST);
      assert.deepEqual(await rowCounts(t.db), counts);
      assert.deepEqual(await storedFiles(session.uuid), []);
    });

    describe('bad input is refused with field errors and writes nothing', () => {
      let session: StartedSession;
      before(async () => {
        session = await joined();
      });

      const refused = async (parts: FormPart[], expected: Record<string, string[]> | string[]) => {
        await t.app.outboxWorker.idle(); // earlier images marked after their answer settle first
        const counts = await rowCounts(t.db);
        const res = await submitEvidence(t, session.token, parts);
        assert.equal(res.statusCode, 400, res.body);
        const body = res.json<Record<string, string[]>>();
        if (Array.isArray(expected)) assert.deepEqual(Object.keys(body).sort(), expected.sort());
        else assert.deepEqual(body, expected);
        assert.deepEqual(await rowCounts(t.db), counts);
        assert.deepEqual(await storedFiles(session.uuid), []);
        return body;
      };

      test('missing data, data that is not JSON, or JSON that is not an object', async () => {
        await refused([imagePart()], { data: ['This field is required.'] });
        await refused([{ name: 'data', value: '{nope' }, imagePart()], { data: ['Invalid JSON.'] });
        await refused([{ name: 'data', value: '{nope', type: 'application/json' }, imagePart()], {
          data: ['Invalid JSON.'],
        });
        await refused([dataPart([1, 2]), imagePart()], ['non_field_errors']);
        // A file part (what FormData makes of a Blob) would not be held to the 64 KB field limit.
        await refused(
          [
            {
              name: 'data',
              fileName: 'blob',
              type: 'application/json',
              data: Buffer.from(JSON.stringify(lessonEvidence())),
            },
          ],
          { data: ['Send data as a text field, not as a file.'] },
        );
      });

      test('missing fields and wrong types are keyed by their path', async () => {
        const good = xrayEvidence();
        await refused([dataPart({ evidenceData: good.evidenceData }), imagePart()], {
          practiceActivity: ['This field is required.'],
        });
        const body = await refused(
          [
            dataPart({
              practiceActivity: 'Knee AP',
              evidenceData: {
                ...good.evidenceData,
                meta: { type: 'selfie' },
                tube: { kV: 'high', mAs: 2000 },
              },
            }),
            imagePart(),
          ],
          [
            'evidenceData.meta.type',
            'evidenceData.tube.kV',
            'evidenceData.tube.mAs',
            'evidenceData.tube.sidCm',
          ],
        );
        assert.deepEqual(body['evidenceData.tube.sidCm'], ['This field is required.']);
        assert.deepEqual(body['evidenceData.meta.type'], [
          'must be one of: "xray_image", "rs_lesson_part"',
        ]);
      });

      test('oversize strings and unknown fields', async () => {
        await refused(
          [dataPart(xrayEvidence({ practiceActivity: 'x'.repeat(256) })), imagePart()],
          ['practiceActivity'],
        );
        await refused(
          [
            dataPart({
              ...xrayEvidence(),
              evidenceData: { ...xrayEvidence().evidenceData, settings: { note: 'n'.repeat(256) } },
            }),
            imagePart(),
          ],
          ['evidenceData.settings.note'],
        );
        await refused([dataPart({ ...xrayEvidence(), score: 5 }), imagePart()], {
          score: ['Unknown field.'],
        });
        await refused(
          [{ name: 'data', value: JSON.stringify({ pad: 'p'.repeat(70 * 1024) }) }, imagePart()],
          ['data'],
        );
      });

      test('an X-ray needs its image; a lesson part needs its lesson', async () => {
        await refused([dataPart(xrayEvidence())], ['image']);
        const lesson = lessonEvidence();
        delete lesson.evidenceData.lesson;
        await refused([dataPart(lesson)], { 'evidenceData.lesson': ['This field is required.'] });
      });

      test('an image that is not really a PNG or JPEG is an invalid file type', async () => {
        const invalidType = {
          image: ['Invalid file type. Allowed types are: image/png, image/jpeg.'],
        };
        const data = dataPart(xrayEvidence());
        await refused(
          [data, imagePart(Buffer.from('GIF89a....'), 'knee.png', 'image/png')],
          invalidType,
        );
        await refused([data, imagePart(PNG, 'knee.png', 'image/gif')], invalidType);
        await refused([data, imagePart(PNG, 'knee.jpg', 'image/png')], invalidType);
        await refused([data, imagePart(JPEG, 'knee.jpg', 'image/png')], invalidType);
        await refused([data, imagePart(Buffer.alloc(0), 'knee.png', 'image/png')], {
          image: ['The submitted file is empty.'],
        });
      });

      test('file names follow the file rules with their messages', async () => {
        const data = dataPart(xrayEvidence());
        for (const name of [
          'bad<name>.png',
          'a:b.png',
          'CON.png',
          'lpt1.jpg',
          'tab\there.png',
          'knee.png.',
        ]) {
          await refused([data, imagePart(PNG, name)], { image: ['File name is invalid.'] });
        }
        await refused([data, imagePart(PNG, `${'a'.repeat(252)}.png`)], {
          image: ['File name is too long.'],
        });
        await refused([data, imagePart(PNG, 'knee.gif')], {
          image: ['File extension is not valid. Allowed extensions are: png, jpg, jpeg.'],
        });
      });

      test('an image over 10 MB is too large: 413, whatever else is wrong', async () => {
        const big = Buffer.concat([PNG, Buffer.alloc(10 * 1024 * 1024)]);
        for (const parts of [
          [dataPart(xrayEvidence()), imagePart(big)],
          [dataPart({ nope: true }), imagePart(big, 'bad<name>.png')],
        ]) {
          await t.app.outboxWorker.idle(); // earlier images marked after their answer settle first
          const counts = await rowCounts(t.db);
          const res = await submitEvidence(t, session.token, parts);
          assert.equal(res.statusCode, 413, res.body);
          assert.deepEqual(res.json(), { image: ['File is too large. Max file size is 10MB'] });
          assert.deepEqual(await rowCounts(t.db), counts);
          assert.deepEqual(await storedFiles(session.uuid), []);
        }
      });

      test('only one image per evidence', async () => {
        await refused([dataPart(xrayEvidence()), imagePart(), imagePart()], {
          image: ['Only one file may be uploaded.'],
        });
      });

      test('a body that is not a multipart form', async () => {
        await t.app.outboxWorker.idle(); // earlier images marked after their answer settle first
        const counts = await rowCounts(t.db);
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/v1/simulator/session/evidence',
          headers: sessionHeader(session.token),
          payload: xrayEvidence(),
        });
        assert.equal(res.statusCode, 400);
        assert.deepEqual(Object.keys(res.json()), ['non_field_errors']);
        assert.deepEqual(await rowCounts(t.db), counts);
      });
    });

    test('a session holds at most 200 evidence', async () => {
      const session = await joined();
      await t.db.query(
        `insert into evidence (session_uuid, position, practice_activity, evidence_data)
         select $1, n, 'Knee AP', $2::jsonb from generate_series(0, 199) as n`,
        [session.uuid, JSON.stringify(xrayEvidence().evidenceData)],
      );
      await t.app.outboxWorker.idle(); // earlier images marked after their answer settle first
      const counts = await rowCounts(t.db);
      const res = await submitEvidence(t, session.token, [dataPart(xrayEvidence()), imagePart()]);
      assert.equal(res.statusCode, 400);
      assert.deepEqual(res.json(), {
        non_field_errors: ['A session holds at most 200 evidence.'],
      });
      assert.deepEqual(await rowCounts(t.db), counts);
      assert.deepEqual(await storedFiles(session.uuid), []);
    });
  });

  describe('complete', () => {
    test('completes with report details; the token is then spent and the close finds the report', async () => {
      const session = await joined();
      assert.equal(
        (await submitEvidence(t, session.token, [dataPart(xrayEvidence()), imagePart()]))
          .statusCode,
        201,
      );
      const details = { summary: 'Three good knee images.', score: 87, durationSeconds: 640 };
      const res = await complete(t, session.token, { reportDetails: details });
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.json(), { uuid: session.uuid, status: 'complete' });
      const row = await t.db.query<{ report_details: unknown; completed_at: Date | null }>(
        'select report_details, completed_at from simulation_sessions where uuid = $1',
        [session.uuid],
      );
      assert.deepEqual(row.rows[0]?.report_details, details);
      assert.ok(row.rows[0]?.completed_at);
      assert.deepEqual((await ownerCall(session, 'status')).json(), {
        uuid: session.uuid,
        status: 'complete',
      });

      await t.app.outboxWorker.idle(); // earlier images marked after their answer settle first

      const counts = await rowCounts(t.db);
      for (const res of [
        await join(t, session.token),
        await submitEvidence(t, session.token, [dataPart(xrayEvidence()), imagePart()]),
        await complete(t, session.token),
      ]) {
        assert.equal(res.statusCode, 409);
        assert.deepEqual(res.json(), NOT_OPEN);
      }
      assert.deepEqual(await rowCounts(t.db), counts);

      const closed = await ownerCall(session, 'close');
      assert.deepEqual(closed.json<CloseSessionResult>(), {
        hasReportDetails: true,
        hasSubmittedEvidence: true,
        status: 'closed',
      });
      assert.deepEqual((await join(t, session.token)).json(), NOT_OPEN);
    });

    test('without report details the report has none', async () => {
      const session = await joined();
      assert.equal((await complete(t, session.token, {})).statusCode, 200);
      assert.deepEqual((await ownerCall(session, 'close')).json<CloseSessionResult>(), {
        hasReportDetails: false,
        hasSubmittedEvidence: false,
        status: 'closed',
      });
    });

    test('a session closed by the learner before the simulator finished refuses its token', async () => {
      const session = await joined();
      assert.equal((await ownerCall(session, 'close')).statusCode, 200);
      const res = await complete(t, session.token, { reportDetails: { summary: 'late' } });
      assert.equal(res.statusCode, 409);
      assert.deepEqual(res.json(), NOT_OPEN);
    });

    test('completing before joining is a conflict', async () => {
      const session = await createSession(t);
      const res = await complete(t, session.token);
      assert.equal(res.statusCode, 409);
      assert.deepEqual(res.json(), JOIN_FIRST);
    });

    test('bad report details are field errors and leave the session in progress', async () => {
      const session = await joined();
      const cases: Array<[unknown, string[]]> = [
        [{ reportDetails: 'fine' }, ['reportDetails']],
        [{ reportDetails: {} }, ['reportDetails.summary']],
        [{ reportDetails: { summary: 's'.repeat(2001) } }, ['reportDetails.summary']],
        [{ reportDetails: { summary: 'ok', score: 101 } }, ['reportDetails.score']],
        [
          { reportDetails: { summary: 'ok', durationSeconds: 1.5 } },
          ['reportDetails.durationSeconds'],
        ],
      ];
      for (const [payload, [field]] of cases) {
        const res = await complete(t, session.token, payload);
        assert.equal(res.statusCode, 400, JSON.stringify(payload));
        // A nested object's error also fails the union's null branch, which names the parent.
        const keys = Object.keys(res.json());
        assert.ok(field && keys.includes(field), `${JSON.stringify(payload)}: ${keys.join(', ')}`);
        assert.ok(keys.every((k) => k.startsWith('reportDetails')));
      }
      const row = await t.db.query(
        'select status, report_details from simulation_sessions where uuid = $1',
        [session.uuid],
      );
      assert.deepEqual(row.rows, [{ status: 'in_progress', report_details: null }]);
    });
  });
});

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { PNG } from 'pngjs';
import { buildSimulatorApp, type SimulatorApp } from '../src/app';
import { runHeadlessSession } from '../src/headless/run-headless-session';
import { SessionApiError } from '../src/session-client';
import { createSession, evidenceRows, learner, sessionRow, startApi, type RunningApi } from './support';

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

let api: RunningApi;
let simulator: SimulatorApp;

before(async () => {
  api = await startApi();
  simulator = await buildSimulatorApp({ apiUrl: api.url, logger: false });
});

after(async () => {
  await simulator?.close();
  await api?.close();
});

describe('headless sessions against the real API', () => {
  test('join, three images and complete leave a complete session with three evidence', async () => {
    const { token, uuid } = await createSession(api, 'radiography.lower-limb.knee');
    const result = await runHeadlessSession({ apiUrl: api.url, token, images: 3 });
    assert.deepEqual(result.completed, { uuid, status: 'complete' });
    assert.equal(result.session.product.name, 'Radiography');
    assert.equal(result.session.categoryName, 'Knee');
    assert.equal(result.evidence.length, 3);
    const row = await sessionRow(api, uuid);
    assert.equal(row.status, 'complete');
    assert.equal(row.evidence, 3);
    assert.equal(row.report_details?.summary, '3 images of the knee');
    assert.equal(row.report_details?.score, 100);
    const evidence = await evidenceRows(api, uuid);
    assert.deepEqual(evidence.map((e) => e.position), [0, 1, 2]);
    assert.ok(evidence.every((e) => e.image_file_id !== null));
    assert.match(evidence[0]?.practice_activity ?? '', /^Knee AP/);
  });

  test('a lesson leaf records both lesson parts without images', async () => {
    const { token, uuid } = await createSession(api, 'radiation-safety.lesson.distance-and-time');
    const result = await runHeadlessSession({ apiUrl: api.url, token, images: 1 });
    assert.equal(result.evidence.length, 2, 'rounded up to a whole lesson');
    const evidence = await evidenceRows(api, uuid);
    const lessons = evidence.map((e) => (e.evidence_data as { lesson: { partIndex: number; doses: { chest: number } } }).lesson);
    assert.deepEqual(lessons.map((l) => l.partIndex), [0, 1]);
    assert.ok((lessons[1]?.doses.chest ?? Infinity) < (lessons[0]?.doses.chest ?? 0));
    assert.ok(evidence.every((e) => e.image_file_id === null));
    assert.equal((await sessionRow(api, uuid)).status, 'complete');
  });

  test('--no-complete leaves the session open and a second run continues the count', async () => {
    const { token, uuid } = await createSession(api, 'radiography.upper-limb.hand');
    const first = await runHeadlessSession({ apiUrl: api.url, token, images: 1, complete: false });
    assert.equal(first.completed, null);
    assert.equal((await sessionRow(api, uuid)).status, 'in_progress');
    const second = await runHeadlessSession({ apiUrl: api.url, token, images: 1, tube: { mAs: 0.5 } });
    assert.equal(second.session.evidenceCount, 1);
    assert.equal(second.summary, '2 images of the hand');
    assert.equal(second.evidence[0]?.summary.exposure, 'under');
    assert.deepEqual((await evidenceRows(api, uuid)).map((e) => e.position), [0, 1]);
  });

  test('API errors carry the status and the server detail', async () => {
    await assert.rejects(runHeadlessSession({ apiUrl: api.url, token: 'not-a-real-token', images: 1 }), (error: unknown) => {
      assert.ok(error instanceof SessionApiError);
      assert.equal(error.status, 401);
      assert.ok(error.detail);
      return true;
    });
    const { token } = await createSession(api, 'radiography.lower-limb.foot');
    await runHeadlessSession({ apiUrl: api.url, token, images: 0 });
    await assert.rejects(runHeadlessSession({ apiUrl: api.url, token, images: 1 }), (error: unknown) => error instanceof SessionApiError && error.status === 409);
  });

  test('the CLI runs a session and prints JSON', async () => {
    const { token, uuid } = await createSession(api, 'radiography.torso.chest');
    const cli = fileURLToPath(new URL('../src/cli.ts', import.meta.url));
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', cli, '--', '--token', token, '--images', '2', '--kv', '110', '--api', api.url, '--json'], {
      cwd: fileURLToPath(new URL('..', import.meta.url)),
    });
    const output = JSON.parse(stdout) as { evidence: Array<{ tube: { kV: number } }>; completed: { status: string } };
    assert.equal(output.completed.status, 'complete');
    assert.deepEqual(output.evidence.map((e) => e.tube.kV), [110, 110]);
    assert.equal((await sessionRow(api, uuid)).evidence, 2);
  });

  test('the CLI takes a token that starts with a dash (one in 64 does) as the token', async () => {
    const cli = fileURLToPath(new URL('../src/cli.ts', import.meta.url));
    const dashed = `-${'A'.repeat(42)}`;
    await assert.rejects(promisify(execFile)(process.execPath, ['--import', 'tsx', cli, '--', '--token', dashed, '--images', '1', '--api', api.url]), (error: { code?: number; stderr?: string }) => {
      // Reaches the API, which does not know the token; the option parser no longer refuses it.
      assert.doesNotMatch(error.stderr ?? '', /ambiguous|--token is required/);
      assert.notEqual(error.code, 2);
      return true;
    });
  });

  test('the CLI refuses a missing token with its usage', async () => {
    const cli = fileURLToPath(new URL('../src/cli.ts', import.meta.url));
    await assert.rejects(promisify(execFile)(process.execPath, ['--import', 'tsx', cli, '--images', '1']), (error: { code?: number; stderr?: string }) => {
      assert.equal(error.code, 2);
      assert.match(error.stderr ?? '', /--token is required/);
      return true;
    });
  });
});

describe('the launch page against the real API', () => {
  test('opening the link joins the session and shows what to simulate', async () => {
    const { token, uuid } = await createSession(api, 'radiography.lower-limb.knee');
    const page = await simulator.inject(`/launch?token=${encodeURIComponent(token)}`);
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /<h1>Radiography simulator<\/h1>/);
    assert.match(page.body, new RegExp(`${learner.firstName} ${learner.lastName}`));
    assert.match(page.body, /<dd>Knee<\/dd>/);
    assert.match(page.body, /<dd>Desktop<\/dd>/);
    for (const label of ['Tube voltage (kV)', 'Tube current-time product (mAs)', 'Source-to-image distance (cm)']) {
      assert.match(page.body, new RegExp(`<label for="\\w+">${label.replace(/[()]/g, '\\$&')}</label>`));
    }
    assert.match(page.body, /value="65"/, 'knee default kV');
    assert.match(page.body, />Take image</);
    assert.match(page.body, />Finish session</);
    assert.equal((await sessionRow(api, uuid)).status, 'in_progress');
    // A reload joins again while the session is in progress.
    assert.equal((await simulator.inject(`/launch?token=${encodeURIComponent(token)}`)).statusCode, 200);
  });

  test('taking images lists them with their technique, and finishing completes the session', async () => {
    const { token, uuid } = await createSession(api, 'radiography.lower-limb.knee');
    const taken = await simulator.inject({ method: 'POST', url: '/launch/capture', headers: FORM, payload: form({ token, kV: '70', mAs: '6.3', sidCm: '115' }) });
    assert.equal(taken.statusCode, 303);
    assert.equal(taken.headers.location, `/launch?token=${encodeURIComponent(token)}&done=1`);
    const page = await simulator.inject(taken.headers.location as string);
    assert.match(page.body, /Image 1 recorded\./);
    assert.match(page.body, /70 kV · 6\.3 mAs · 115 cm · DAP [\d.]+ mGy·cm²/);
    assert.match(page.body, /value="6.3"/, 'the form keeps the last technique');
    const src = /<img src="([^"]+)"/.exec(page.body)?.[1];
    assert.ok(src);
    const image = await simulator.inject(src);
    assert.equal(image.headers['content-type'], 'image/png');
    assert.equal(PNG.sync.read(image.rawPayload).width, 512);

    const finished = await simulator.inject({ method: 'POST', url: '/launch/finish', headers: FORM, payload: form({ token }) });
    assert.equal(finished.statusCode, 200);
    assert.match(finished.body, /Session complete\. You can close this window\./);
    const row = await sessionRow(api, uuid);
    assert.equal(row.status, 'complete');
    assert.equal(row.evidence, 1);
    assert.equal(row.report_details?.summary, '1 image of the knee');

    const closed = await simulator.inject(`/launch?token=${encodeURIComponent(token)}`);
    assert.equal(closed.statusCode, 409);
    assert.match(closed.body, /no longer open/);
  });

  test('settings out of range are refused beside their field and nothing is submitted', async () => {
    const { token, uuid } = await createSession(api, 'radiography.skull.skull');
    const refused = await simulator.inject({ method: 'POST', url: '/launch/capture', headers: FORM, payload: form({ token, kV: '300', mAs: '10', sidCm: '110' }) });
    assert.equal(refused.statusCode, 400);
    assert.match(refused.body, /id="kV-error">Enter a value from 40 to 150\./);
    assert.match(refused.body, /aria-invalid="true"/);
    assert.match(refused.body, /value="300"/);
    assert.equal((await sessionRow(api, uuid)).evidence, 0);
  });

  test('a lesson leaf records its two parts in turn', async () => {
    const { token, uuid } = await createSession(api, 'radiation-safety.lesson.shielding');
    const page = await simulator.inject(`/launch?token=${encodeURIComponent(token)}`);
    assert.match(page.body, /<h1>Radiation safety simulator<\/h1>/);
    assert.match(page.body, />Record lesson part</);
    assert.doesNotMatch(page.body, />Take image</);
    for (const done of [1, 2]) {
      const recorded = await simulator.inject({ method: 'POST', url: '/launch/lesson-part', headers: FORM, payload: form({ token }) });
      assert.equal(recorded.headers.location, `/launch?token=${encodeURIComponent(token)}&done=${done}`);
    }
    const after = await simulator.inject(`/launch?token=${encodeURIComponent(token)}`);
    assert.match(after.body, /Both parts of the lesson are recorded/);
    assert.doesNotMatch(after.body, />Record lesson part</);
    assert.match(after.body, /Operator doses, µSv/);
    // A third press (a stale tab) records nothing more.
    await simulator.inject({ method: 'POST', url: '/launch/lesson-part', headers: FORM, payload: form({ token }) });
    assert.equal((await sessionRow(api, uuid)).evidence, 2);
  });

  test('a bad token shows a clear message', async () => {
    const page = await simulator.inject('/launch?token=no-such-token');
    assert.equal(page.statusCode, 401);
    assert.match(page.body, /not valid or has expired/);
    assert.doesNotMatch(page.body, /no-such-token/);
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createLocalJWKSet, jwtVerify } from 'jose';
import type { RunningLms } from '../src/index';
import { BRIGHTSPACE_TOKEN_AUDIENCE } from '../src/institutions';
import { AGS_LINEITEM, AGS_SCORE, agsToken, clientAssertion, form, startTestLms, startTestTool, type TestTool } from './support';

const SCORE_TYPE = 'application/vnd.ims.lis.v1.score+json';

describe('the stand-in as an AGS platform', () => {
  let tool: TestTool;
  let lms: RunningLms;
  before(async () => {
    tool = await startTestTool();
    lms = await startTestLms(tool);
  });
  after(async () => {
    await lms.close();
    await tool.close();
  });

  it('publishes its RS256 key as a JWKS that verifies what it signs', async () => {
    const response = await fetch(`${lms.url}/.well-known/jwks.json`);
    assert.equal(response.status, 200);
    const jwks = (await response.json()) as { keys: Array<Record<string, unknown>> };
    assert.equal(jwks.keys.length, 1);
    assert.equal(jwks.keys[0]!.alg, 'RS256');
    assert.equal(jwks.keys[0]!.kty, 'RSA');
    assert.equal(jwks.keys[0]!.d, undefined, 'no private part');
    const token = await lms.app.lms.keys.sign({ sub: '101' }, { audience: 'portal-tool', expiresInSeconds: 60 });
    const { payload } = await jwtVerify(token, createLocalJWKSet(jwks as never), { issuer: lms.url, audience: 'portal-tool' });
    assert.equal(payload.sub, '101');
  });

  const tokenRequest = async (assertion: string, scope = AGS_SCORE) =>
    fetch(`${lms.url}/oauth2/token`, form({
      grant_type: 'client_credentials',
      client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
      client_assertion: assertion,
      scope,
    }));

  it('issues a bearer token for a good client assertion, with the AGS scopes asked for', async () => {
    const response = await tokenRequest(await clientAssertion(tool, lms), `${AGS_SCORE} https://example.test/other`);
    assert.equal(response.status, 200);
    const body = (await response.json()) as Record<string, unknown>;
    assert.equal(body.token_type, 'Bearer');
    assert.equal(body.scope, AGS_SCORE);
    assert.equal(typeof body.access_token, 'string');
    // Demo Brightspace College's client (its launches' grades) gets one too, with Brightspace's audience.
    const college = { iss: 'portal-tool-brightspace', sub: 'portal-tool-brightspace', aud: BRIGHTSPACE_TOKEN_AUDIENCE };
    assert.equal((await tokenRequest(await clientAssertion(tool, lms, college), AGS_SCORE)).status, 200);
  });

  it("refuses the Brightspace client's assertion with the token URL as its audience, as Brightspace does", async () => {
    const college = { iss: 'portal-tool-brightspace', sub: 'portal-tool-brightspace' };
    const response = await tokenRequest(await clientAssertion(tool, lms, college), AGS_SCORE);
    assert.equal(response.status, 401);
    const body = (await response.json()) as { error: string; error_description: string };
    assert.equal(body.error, 'invalid_client');
    assert.match(body.error_description, /aud/);
    // The other client keeps the token URL: Brightspace's audience is no audience of its.
    const hospital = await tokenRequest(await clientAssertion(tool, lms, { aud: BRIGHTSPACE_TOKEN_AUDIENCE }), AGS_SCORE);
    assert.equal(hospital.status, 401);
  });

  it('refuses bad client assertions: wrong key, issuer, audience, expired, HS256, replayed jti', async () => {
    const cases: Array<[string, Promise<string>]> = [
      ['stray key', clientAssertion(tool, lms, {}, { key: tool.strayKey })],
      ['wrong iss', clientAssertion(tool, lms, { iss: 'someone-else' })],
      ['wrong sub', clientAssertion(tool, lms, { sub: 'someone-else' })],
      ['sub another client', clientAssertion(tool, lms, { sub: 'portal-tool-brightspace' })],
      ['wrong aud', clientAssertion(tool, lms, { aud: lms.url })],
      ['expired', clientAssertion(tool, lms, { exp: Math.floor(Date.now() / 1000) - 120, iat: Math.floor(Date.now() / 1000) - 400 })],
      ['no jti', clientAssertion(tool, lms, { jti: undefined })],
      ['HS256', clientAssertion(tool, lms, {}, { key: new TextEncoder().encode('x'.repeat(64)) as never, alg: 'HS256' })],
    ];
    for (const [name, assertion] of cases) {
      const response = await tokenRequest(await assertion);
      assert.equal(response.status, 401, name);
      assert.equal(((await response.json()) as { error: string }).error, 'invalid_client', name);
    }
    const once = await clientAssertion(tool, lms);
    assert.equal((await tokenRequest(once)).status, 200);
    const replay = await tokenRequest(once);
    assert.equal(replay.status, 401);
    assert.match(((await replay.json()) as { error_description: string }).error_description, /jti/);
  });

  it('refuses other grants and scopes outside AGS', async () => {
    const wrongGrant = await fetch(`${lms.url}/oauth2/token`, form({ grant_type: 'password', username: 'x', password: 'y' }));
    assert.equal(wrongGrant.status, 400);
    assert.equal(((await wrongGrant.json()) as { error: string }).error, 'unsupported_grant_type');
    const noScope = await tokenRequest(await clientAssertion(tool, lms), 'openid');
    assert.equal(noScope.status, 400);
    assert.equal(((await noScope.json()) as { error: string }).error, 'invalid_scope');
  });

  const lineItemUrl = () => `${lms.url}/ags/lineitems/1`;
  const postScore = (token: string, score: Record<string, unknown>, type = SCORE_TYPE) =>
    fetch(`${lineItemUrl()}/scores`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': type }, body: JSON.stringify(score) });
  const score = (overrides: Record<string, unknown> = {}) => ({
    userId: '101',
    scoreGiven: 80,
    scoreMaximum: 100,
    activityProgress: 'Completed',
    gradingProgress: 'FullyGraded',
    timestamp: new Date().toISOString(),
    ...overrides,
  });
  const storedScores = async () => {
    const response = await fetch(`${lms.url}/test/scores`);
    const items = (await response.json()) as Array<{ lineItem: string; scores: Array<Record<string, unknown>> }>;
    return items.find((i) => i.lineItem === lineItemUrl())!.scores;
  };

  it('lists the course line items and reads one', async () => {
    const token = await agsToken(tool, lms);
    const list = await fetch(`${lms.url}/ags/lineitems`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(list.status, 200);
    assert.match(list.headers.get('content-type')!, /lineitemcontainer\+json/);
    const items = (await list.json()) as Array<Record<string, unknown>>;
    assert.deepEqual(items[0], { id: lineItemUrl(), label: 'Radiography', scoreMaximum: 100, resourceLinkId: 'link-1', resourceId: 'radiography.lower-limb.knee', tag: 'simulation' });
    const one = await fetch(lineItemUrl(), { headers: { authorization: `Bearer ${token}` } });
    assert.deepEqual(await one.json(), items[0]);
    assert.equal((await fetch(lineItemUrl())).status, 401);
    const scoreOnly = await agsToken(tool, lms, AGS_SCORE);
    assert.equal((await fetch(lineItemUrl(), { headers: { authorization: `Bearer ${scoreOnly}` } })).status, 403);
    assert.equal((await fetch(`${lms.url}/ags/lineitems/99`, { headers: { authorization: `Bearer ${token}` } })).status, 404);
  });

  it('stores a valid score and shows it in the gradebook; an older timestamp is ignored', async () => {
    const token = await agsToken(tool, lms);
    const newer = new Date().toISOString();
    assert.equal((await postScore(token, score({ scoreGiven: 80, timestamp: newer }))).status, 204);
    const older = new Date(Date.now() - 60_000).toISOString();
    assert.equal((await postScore(token, score({ scoreGiven: 10, timestamp: older }))).status, 204);
    const [stored] = await storedScores();
    assert.equal(stored!.scoreGiven, 80);
    assert.equal(stored!.timestamp, newer);
    const later = new Date(Date.now() + 1000).toISOString();
    assert.equal((await postScore(token, score({ scoreGiven: 90, timestamp: later }))).status, 204);
    assert.equal((await storedScores())[0]!.scoreGiven, 90);
  });

  it("shows each score's comment in the gradebook, as text", async () => {
    const token = await agsToken(tool, lms);
    const comment = 'Centre on the <b>joint</b> space & retake.';
    const timestamp = new Date(Date.now() + 5_000).toISOString();
    assert.equal((await postScore(token, score({ scoreGiven: 75, comment, timestamp }))).status, 204);
    const signedIn = await fetch(`${lms.url}/login`, { ...form({ email: 'educator@demo.test', password: 'demo1234' }), redirect: 'manual' });
    const cookie = signedIn.headers.getSetCookie()[0]!.split(';')[0]!;
    const book = await (await fetch(`${lms.url}/gradebook`, { headers: { cookie } })).text();
    assert.match(book, /<th scope="col">Comment<\/th>/);
    assert.match(book, /<td>75 \/ 100<\/td>.*<td class="comment">Centre on the &#60;b&#62;joint&#60;\/b&#62; space &#38; retake\.<\/td>/s);
  });

  it('refuses invalid scores with the field at fault, a wrong content type, no token or a token without the score scope', async () => {
    const token = await agsToken(tool, lms);
    const bad: Array<[Record<string, unknown>, string]> = [
      [score({ userId: undefined }), 'userId'],
      [score({ userId: 'nobody' }), 'userId'],
      [score({ scoreGiven: 101 }), 'scoreGiven'],
      [score({ scoreGiven: -1 }), 'scoreGiven'],
      [score({ scoreMaximum: undefined }), 'scoreMaximum'],
      [score({ scoreMaximum: 0 }), 'scoreMaximum'],
      [score({ activityProgress: 'Done' }), 'activityProgress'],
      [score({ gradingProgress: undefined }), 'gradingProgress'],
      [score({ timestamp: '2026-11-25' }), 'timestamp'],
      [score({ timestamp: 'yesterday' }), 'timestamp'],
    ];
    for (const [body, field] of bad) {
      const response = await postScore(token, body);
      assert.equal(response.status, 400, field);
      assert.ok(Array.isArray(((await response.json()) as Record<string, unknown>)[field]), field);
    }
    assert.equal((await postScore(token, score(), 'application/json')).status, 415);
    assert.equal((await postScore('not-a-token', score())).status, 401);
    const lineitemOnly = await agsToken(tool, lms, AGS_LINEITEM);
    assert.equal((await postScore(lineitemOnly, score())).status, 403);
  });

  it('the outage switch makes the token and score endpoints answer 503 until it is off', async () => {
    const token = await agsToken(tool, lms);
    const outage = (down: unknown) => fetch(`${lms.url}/test/outage`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ down }) });
    assert.equal((await outage('yes')).status, 400);
    assert.equal((await outage(true)).status, 200);
    try {
      assert.equal((await tokenRequest(await clientAssertion(tool, lms))).status, 503);
      const during = await postScore(token, score({ timestamp: new Date(Date.now() + 5000).toISOString(), scoreGiven: 50 }));
      assert.equal(during.status, 503);
      assert.equal(during.headers.get('retry-after'), '1');
      assert.notEqual((await storedScores())[0]!.scoreGiven, 50);
    } finally {
      assert.equal((await outage(false)).status, 200);
    }
    assert.equal((await postScore(token, score({ timestamp: new Date(Date.now() + 5000).toISOString(), scoreGiven: 50 }))).status, 204);
    assert.equal((await storedScores())[0]!.scoreGiven, 50);
    lms.setOutage(true);
    assert.equal((await tokenRequest(await clientAssertion(tool, lms))).status, 503);
    lms.setOutage(false);
  });

  it('has no test endpoints unless enabled', async () => {
    const plain = await startTestLms(tool, { testEndpoints: false });
    try {
      assert.equal((await fetch(`${plain.url}/test/scores`)).status, 404);
      assert.equal((await fetch(`${plain.url}/test/outage`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"down":true}' })).status, 404);
    } finally {
      await plain.close();
    }
  });
});

import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import type { RunningLms } from '../src/index';
import { AGS_SCORE, agsToken, clientAssertion, completeLogin, form, NRPS_SCOPE, signInTo, startTestLms, startTestTool, type TestTool } from './support';

const NRPS_CLAIM = 'https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice';
const CONTAINER = 'application/vnd.ims.lti-nrps.v2.membershipcontainer+json';
const LEARNER = 'http://purl.imsglobal.org/vocab/lis/v2/membership#Learner';
const INSTRUCTOR = 'http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor';

interface Member {
  user_id: string;
  status: string;
  roles: string[];
  name?: string;
  given_name?: string;
  family_name?: string;
  email?: string;
}
interface Container {
  id: string;
  context: { id: string; label: string; title: string };
  members: Member[];
}

/** `<url>; rel="x"` entries of a Link header, by rel. */
function linksOf(header: string | null): Record<string, string> {
  const links: Record<string, string> = {};
  for (const part of (header ?? '').split(',')) {
    const match = /^\s*<([^>]+)>\s*;\s*rel="([^"]+)"\s*$/.exec(part);
    assert.ok(match, `malformed Link entry: ${part}`);
    links[match[2]!] = match[1]!;
  }
  return links;
}

describe('the stand-in as an NRPS 2.0 platform', () => {
  let tool: TestTool;
  let lms: RunningLms;
  let membershipsUrl: string;
  before(async () => {
    tool = await startTestTool();
    lms = await startTestLms(tool);
    membershipsUrl = `${lms.url}/nrps/contexts/demo-course/memberships`;
  });
  after(async () => {
    await lms.close();
    await tool.close();
  });
  afterEach(async () => {
    assert.equal((await fetch(`${lms.url}/test/nrps/reset`, { method: 'POST' })).status, 200);
  });

  const read = (url: string, token: string | null) => fetch(url, { headers: token ? { authorization: `Bearer ${token}`, accept: CONTAINER } : { accept: CONTAINER } });
  const nrpsToken = () => agsToken(tool, lms, NRPS_SCOPE);

  /** Every page from `url` on, following rel="next" as a tool does. */
  async function allPages(url: string, token: string) {
    const pages: Array<{ container: Container; links: Record<string, string> }> = [];
    let next: string | undefined = url;
    while (next) {
      const response = await read(next, token);
      assert.equal(response.status, 200, next);
      assert.equal(response.headers.get('content-type')?.split(';')[0], CONTAINER);
      const links = linksOf(response.headers.get('link'));
      pages.push({ container: (await response.json()) as Container, links });
      next = links.next;
      assert.ok(pages.length < 20, 'the next links end');
    }
    return pages;
  }

  const testCall = (method: string, path: string, body?: unknown) =>
    fetch(`${lms.url}${path}`, body === undefined ? { method } : { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  it('names the course memberships URL in launches of both institutions\' clients', async () => {
    for (const [userId, clientId] of [['101', 'portal-tool'], ['107', 'portal-tool-brightspace']] as const) {
      const cookie = await signInTo(lms, userId);
      const pressed = await fetch(`${lms.url}/course/links/link-1/launch`, { ...form({}), headers: { ...form({}).headers, cookie }, redirect: 'manual' });
      const login = new URL(pressed.headers.get('location')!).searchParams;
      assert.equal(login.get('client_id'), clientId);
      const { payload } = await completeLogin(lms, cookie, login);
      assert.deepEqual(payload[NRPS_CLAIM], { context_memberships_url: membershipsUrl, service_versions: ['2.0'] }, userId);
    }
    // A deep linking request carries it too (the instructor's roster comes with any launch).
    const educator = await signInTo(lms, '102');
    const pressed = await fetch(`${lms.url}/course/deep-link`, { ...form({}), headers: { ...form({}).headers, cookie: educator }, redirect: 'manual' });
    const { payload } = await completeLogin(lms, educator, new URL(pressed.headers.get('location')!).searchParams);
    assert.equal((payload[NRPS_CLAIM] as { context_memberships_url: string }).context_memberships_url, membershipsUrl);
  });

  it('serves 120 members in pages of 50, 50 and 20 linked by rel="next" as Canvas links them', async () => {
    const token = await nrpsToken();
    const pages = await allPages(membershipsUrl, token);
    assert.deepEqual(pages.map((p) => p.container.members.length), [50, 50, 20]);
    assert.deepEqual(pages[0]!.container.context, { id: 'demo-course', label: 'DEMO-101', title: 'Demo course' });
    // First page: current, next, first, last; the last page has no next.
    assert.deepEqual(Object.keys(pages[0]!.links).sort(), ['current', 'first', 'last', 'next']);
    assert.equal(pages[0]!.links.next, `${membershipsUrl}?page=2&limit=50`);
    assert.equal(pages[2]!.links.last, `${membershipsUrl}?page=3&limit=50`);
    assert.equal(pages[2]!.links.next, undefined);
    assert.equal(pages[1]!.container.id, `${membershipsUrl}?page=2&limit=50`);

    const members = pages.flatMap((p) => p.container.members);
    assert.equal(new Set(members.map((m) => m.user_id)).size, 120, 'no member twice');
    // The platform's own users keep their ids, names and roles.
    const lena = members.find((m) => m.user_id === '106')!;
    assert.deepEqual(lena, { user_id: '106', status: 'Active', roles: [LEARNER], name: 'Lena Learner2', given_name: 'Lena', family_name: 'Learner2', email: 'learner2@demo.test' });
    assert.deepEqual(members.find((m) => m.user_id === '102')!.roles, [INSTRUCTOR]);
    for (const id of ['101', '102', '103', '104', '105', '106', '107', '108', '109']) assert.ok(members.some((m) => m.user_id === id), id);
    // The roster has what real courses have.
    const withoutEmail = members.filter((m) => m.email === undefined);
    const withoutName = members.filter((m) => m.name === undefined && m.given_name === undefined && m.family_name === undefined);
    const nameOnly = members.filter((m) => m.name !== undefined && m.given_name === undefined);
    const inactive = members.filter((m) => m.status === 'Inactive');
    const teaching = members.filter((m) => m.roles.some((r) => r.includes('Instructor')));
    // As the README lists them: every ninth generated member hides the address, the anonymous ones have none.
    assert.equal(withoutEmail.length, 15);
    assert.equal(withoutName.length, 3);
    assert.equal(nameOnly.length, 2);
    assert.equal(inactive.length, 4);
    assert.equal(teaching.length, 8);
    assert.equal(members.filter((m) => m.status === 'Active').length, 116);
    assert.ok(members.every((m) => m.roles.length > 0 && /^\d+$/.test(m.user_id)));
    assert.equal(new Set(members.filter((m) => m.email).map((m) => m.email)).size, members.filter((m) => m.email).length, 'e-mail addresses are unique');

    // Deterministic: the same roster again, member for member.
    const again = (await allPages(membershipsUrl, token)).flatMap((p) => p.container.members);
    assert.deepEqual(again, members);
  });

  it('honours limit (capped at 50), page and a role filter, and says which query field is wrong', async () => {
    const token = await nrpsToken();
    const twenties = await allPages(`${membershipsUrl}?limit=20`, token);
    assert.equal(twenties.length, 6);
    assert.equal(twenties[0]!.links.next, `${membershipsUrl}?page=2&limit=20`);
    const capped = await read(`${membershipsUrl}?limit=500`, token);
    assert.equal(((await capped.json()) as Container).members.length, 50);

    const instructors = (await allPages(`${membershipsUrl}?role=Instructor`, token)).flatMap((p) => p.container.members);
    assert.ok(instructors.length >= 5);
    assert.ok(instructors.every((m) => m.roles.some((r) => r.includes('Instructor'))));
    const learners = await allPages(`${membershipsUrl}?role=${encodeURIComponent(LEARNER)}`, token);
    assert.equal(learners[0]!.links.next, `${membershipsUrl}?role=${encodeURIComponent(LEARNER)}&page=2&limit=50`);
    const learnerCount = learners.flatMap((p) => p.container.members).length;
    assert.equal(learnerCount + instructors.length, 120);

    const beyond = await read(`${membershipsUrl}?page=9`, token);
    assert.equal(beyond.status, 200);
    assert.deepEqual(((await beyond.json()) as Container).members, []);
    for (const [query, field] of [['limit=abc', 'limit'], ['limit=0', 'limit'], ['page=-1', 'page']] as const) {
      const bad = await read(`${membershipsUrl}?${query}`, token);
      assert.equal(bad.status, 400, query);
      assert.ok(((await bad.json()) as Record<string, string[]>)[field], query);
    }
    assert.equal((await read(`${lms.url}/nrps/contexts/another-course/memberships`, token)).status, 404);
  });

  it('answers 401 without a valid token and 403 for a token without the NRPS scope', async () => {
    for (const token of [null, 'not-a-token']) {
      const response = await read(membershipsUrl, token);
      assert.equal(response.status, 401, String(token));
      assert.match(response.headers.get('www-authenticate') ?? '', /invalid_token/);
    }
    const agsOnly = await read(membershipsUrl, await agsToken(tool, lms, AGS_SCORE));
    assert.equal(agsOnly.status, 403);
    assert.equal(((await agsOnly.json()) as { error: string }).error, 'insufficient_scope');
    // And an NRPS token does not write scores.
    const score = await fetch(`${lms.url}/ags/lineitems/1/scores`, { method: 'POST', headers: { authorization: `Bearer ${await nrpsToken()}`, 'content-type': 'application/vnd.ims.lis.v1.score+json' }, body: '{}' });
    assert.equal(score.status, 403);
  });

  it('lets tests remove members, set statuses and bring them back, and resets to the full course', async () => {
    const token = await nrpsToken();
    const roster = async () => (await allPages(membershipsUrl, token)).flatMap((p) => p.container.members);

    const removed = await testCall('DELETE', '/test/nrps/members/2010');
    assert.equal(removed.status, 200);
    assert.deepEqual(((await removed.json()) as { removed: string[] }).removed, ['2010']);
    assert.equal((await testCall('PUT', '/test/nrps/members/106', { status: 'Inactive' })).status, 200);
    assert.equal((await testCall('PUT', '/test/nrps/members/2020', { status: 'Deleted' })).status, 200);
    let members = await roster();
    assert.equal(members.length, 119);
    assert.equal(members.find((m) => m.user_id === '2010'), undefined, 'a leaver is absent');
    assert.equal(members.find((m) => m.user_id === '106')!.status, 'Inactive');
    assert.equal(members.find((m) => m.user_id === '2020')!.status, 'Deleted');

    // A leaver given a status is back in the course.
    const back = await testCall('PUT', '/test/nrps/members/2010', { status: 'Active' });
    assert.equal(((await back.json()) as Member).status, 'Active');
    assert.equal((await roster()).length, 120);

    const badStatus = await testCall('PUT', '/test/nrps/members/106', { status: 'Gone' });
    assert.equal(badStatus.status, 400);
    assert.match(((await badStatus.json()) as { status: string[] }).status[0]!, /Active, Inactive, Deleted/);
    assert.equal((await testCall('DELETE', '/test/nrps/members/999999')).status, 404);
    assert.equal((await testCall('PUT', '/test/nrps/members/999999', { status: 'Active' })).status, 404);

    await testCall('DELETE', '/test/nrps/members/101');
    const reset = await testCall('POST', '/test/nrps/reset');
    assert.deepEqual(await reset.json(), { members: 120, removed: [], statuses: {}, down: false, refuseTokens: false });
    members = await roster();
    assert.equal(members.length, 120);
    assert.equal(members.find((m) => m.user_id === '106')!.status, 'Active');
  });

  it('plays a platform that is down (503, Retry-After) or refuses the tool NRPS tokens', async () => {
    const token = await nrpsToken();
    assert.equal((await testCall('POST', '/test/nrps/faults', { down: true })).status, 200);
    const down = await read(membershipsUrl, token);
    assert.equal(down.status, 503);
    assert.equal(down.headers.get('retry-after'), '1');
    await testCall('POST', '/test/nrps/faults', { down: false });
    assert.equal((await read(membershipsUrl, token)).status, 200);

    // The platform-wide outage switch stops NRPS as well.
    lms.setOutage(true);
    try {
      assert.equal((await read(membershipsUrl, token)).status, 503);
    } finally {
      lms.setOutage(false);
    }

    assert.equal((await testCall('POST', '/test/nrps/faults', { refuseTokens: true })).status, 200);
    assert.equal((await read(membershipsUrl, token)).status, 401, 'a token held from before stops working');
    const refused = await fetch(`${lms.url}/oauth2/token`, form({
      grant_type: 'client_credentials',
      client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
      client_assertion: await clientAssertion(tool, lms),
      scope: `${NRPS_SCOPE} ${AGS_SCORE}`,
    }));
    assert.equal(refused.status, 400);
    assert.equal(((await refused.json()) as { error: string }).error, 'invalid_scope');
    // Grades still go: only the roster permission is withdrawn.
    assert.ok(await agsToken(tool, lms, AGS_SCORE));

    const bad = await testCall('POST', '/test/nrps/faults', { down: 'yes' });
    assert.equal(bad.status, 400);
    assert.deepEqual(await bad.json(), { down: ['must be true or false'] });
    assert.equal((await testCall('POST', '/test/nrps/faults', {})).status, 400);
  });
});

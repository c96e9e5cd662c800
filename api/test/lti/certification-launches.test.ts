import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { JWTPayload } from 'jose';
import { buildTestApp, type TestApp } from '../helper';
import { LTI_CLAIM } from '../../src/lti/validate-launch';
import { createTestPlatform, ROLES, serveJwks, signLaunch, type TestPlatform } from './platform-fixtures';
import { ltiLaunch, ltiLaunchRequest, ltiLogin, registerPlatform } from './lti-fixtures';

/**
 * The 1EdTech LTI 1.3 tool certification suite's core launches (lti/v1p3/cert: "Known bad
 * payloads", "Valid teacher launches", "Valid student launches"), sent through the real login
 * and launch routes to a registration NOT marked "platform verifies e-mail addresses" — the
 * default. Every valid launch reaches the launch screen as a portal user of the expected role;
 * every known-bad one is refused with today's error code. api/README.md lists the cases.
 */

const MEMBERSHIP = 'http://purl.imsglobal.org/vocab/lis/v2/membership#';
const PII = ['email', 'name', 'given_name', 'family_name', 'middle_name', 'picture'];

/** The claims the suite's launches carry beyond the core ones (names, lis, tool_platform…). */
const certClaims = (roles: string[]): JWTPayload => ({
  name: 'Marlon Brando',
  given_name: 'Marlon',
  family_name: 'Brando',
  middle_name: 'J',
  picture: 'https://platform.example/picture.jpg',
  locale: 'en-US',
  [`${LTI_CLAIM}roles`]: roles,
  [`${LTI_CLAIM}role_scope_mentor`]: [],
  [`${LTI_CLAIM}context`]: {
    id: 'cert-context-1',
    label: 'CERT 101',
    title: 'Certification course',
    type: ['http://purl.imsglobal.org/vocab/lis/v2/course#CourseOffering'],
  },
  [`${LTI_CLAIM}lis`]: { person_sourcedid: 'cert-person', course_section_sourcedid: 'cert-sec' },
  [`${LTI_CLAIM}tool_platform`]: {
    guid: 'cert-platform-guid',
    name: 'IMS certification platform',
    product_family_code: 'imsglc',
  },
  [`${LTI_CLAIM}launch_presentation`]: {
    document_target: 'iframe',
    return_url: 'https://platform.example/return',
  },
  [`${LTI_CLAIM}custom`]: { productId: '1', cert_case: 'yes', ignored_number: 7 },
});

interface ValidCase {
  name: string;
  roles: string[];
  omit?: string[];
  claims?: JWTPayload;
  expectedRole: 'educator' | 'learner';
}

/** Instructor and student variants of the suite's valid launches, plus the issue's own. */
function validCases(): ValidCase[] {
  const cases: ValidCase[] = [];
  for (const [who, principal, expectedRole] of [
    ['Instructor', `${MEMBERSHIP}Instructor`, 'educator'],
    ['Student', `${MEMBERSHIP}Learner`, 'learner'],
  ] as const) {
    const short = who === 'Instructor' ? 'Instructor' : 'Learner';
    cases.push(
      { name: `${who}: LTI 1.3 message`, roles: [principal], expectedRole },
      {
        name: `${who}: multiple role values`,
        roles:
          who === 'Instructor'
            ? [principal, ROLES.administrator, `${MEMBERSHIP}Mentor`]
            : [principal, ROLES.student, 'http://purl.imsglobal.org/vocab/lis/v2/institution/person#Mentor'],
        expectedRole,
      },
      { name: `${who}: short (context) role value`, roles: [short], expectedRole },
      {
        name: `${who}: unknown role beside the known one`,
        roles: [principal, 'http://purl.imsglobal.org/vocab/lis/v2/uknownrole/unknown#Unknown'],
        expectedRole,
      },
      // The suite's "no role" is a list with one empty string; without a role nobody is an educator.
      { name: `${who}: no role ([""])`, roles: [''], expectedRole: 'learner' },
      { name: `${who}: only e-mail (no name claims)`, roles: [principal], omit: PII.filter((c) => c !== 'email'), expectedRole },
      { name: `${who}: only names (no email)`, roles: [principal], omit: ['email'], expectedRole },
      { name: `${who}: no PII`, roles: [principal], omit: PII, expectedRole },
      { name: `${who}: e-mail, no context`, roles: [principal], omit: [`${LTI_CLAIM}context`], expectedRole },
    );
  }
  cases.push(
    { name: 'empty roles list', roles: [], expectedRole: 'learner' },
    {
      name: 'context roles, short and full URIs, with an institution role',
      roles: ['Instructor', `${MEMBERSHIP}Instructor`, ROLES.student],
      expectedRole: 'educator',
    },
    {
      name: 'sub-role with its principal role (teaching assistant)',
      roles: [ROLES.teachingAssistant, `${MEMBERSHIP}Instructor`],
      expectedRole: 'educator',
    },
    {
      name: 'custom claims only (no AGS, no lis)',
      roles: [`${MEMBERSHIP}Learner`],
      omit: [`${LTI_CLAIM}lis`, 'https://purl.imsglobal.org/spec/lti-ags/claim/endpoint'],
      claims: { [`${LTI_CLAIM}custom`]: { productId: '1', configuration: 'radiography.lower-limb.knee' } },
      expectedRole: 'learner',
    },
    {
      name: 'second deployment of the same registration',
      roles: [`${MEMBERSHIP}Learner`],
      claims: { [`${LTI_CLAIM}deployment_id`]: 'cert-deployment-2' },
      expectedRole: 'learner',
    },
  );
  return cases;
}

describe('LTI 1.3 certification suite launches through the tool', () => {
  let t: TestApp;
  let platform: TestPlatform;
  let jwks: Awaited<ReturnType<typeof serveJwks>>;

  before(async () => {
    t = await buildTestApp();
    platform = await createTestPlatform('https://cert-platform.test', 'cert-client');
    jwks = await serveJwks(() => [platform.publicJwk]);
    const id = await registerPlatform(t.db, platform, jwks.url, 'Demo Hospital', {
      verifiesEmail: false,
    });
    await t.db.query(
      `update lti_platforms set deployment_ids = array[$2, 'cert-deployment-2'] where id = $1`,
      [id, platform.deploymentId],
    );
  });
  after(async () => {
    await t.close();
    await jwks.close();
  });

  describe('valid launches reach the launch screen as a portal user', () => {
    validCases().forEach((c, i) => {
      test(c.name, async () => {
        const sub = `cert-user-${i}`;
        const to = await ltiLaunch(t.app, platform, {
          sub,
          email: `cert.user.${i}@cert-platform.test`,
          claims: { ...certClaims(c.roles), ...c.claims },
          omit: c.omit ?? [],
        });
        assert.equal(`${to.origin}${to.pathname}`, 'http://localhost:8080/lti/launch', to.toString());
        assert.equal(to.searchParams.get('productId'), '1');
        const user = await t.db.query<{ role: string; email: string | null; first_name: string }>(
          `select r.name as role, u.email, u.first_name
             from lti_launches l join users u on u.id = l.user_id join roles r on r.id = u.role_id
            where l.id = $1`,
          [to.searchParams.get('launchId')],
        );
        const row = user.rows[0]!;
        assert.equal(row.role, c.expectedRole);
        const sentEmail = !(c.omit ?? []).includes('email');
        assert.equal(row.email, sentEmail ? `cert.user.${i}@cert-platform.test` : null);
        const sentNames = !(c.omit ?? []).includes('given_name');
        assert.equal(row.first_name, sentNames ? 'Marlon' : sentEmail ? `cert.user.${i}` : '');
      });
    });
  });

  describe('known-bad launches stay refused with their codes', () => {
    const refusedWith = async (
      code: string,
      shape: Parameters<typeof ltiLaunch>[2],
    ): Promise<void> => {
      const to = await ltiLaunch(t.app, platform, { sub: 'cert-bad', ...shape });
      assert.equal(to.toString(), `http://localhost:8080/lti/error?error=${code}`);
    };
    const claimsWith = (extra: JWTPayload = {}) => ({ ...certClaims([`${MEMBERSHIP}Learner`]), ...extra });

    test('no kid in the JWT header', () =>
      refusedWith('INVALID_TOKEN', { claims: claimsWith(), header: { kid: undefined } }));
    test('incorrect kid in the JWT header', () =>
      refusedWith('INVALID_TOKEN', {
        claims: claimsWith(),
        header: { kid: 'imstester_66067' },
        key: platform.strayKey,
      }));
    test('wrong LTI version (11.3)', () =>
      refusedWith('INVALID_LTI_MESSAGE', { claims: claimsWith({ [`${LTI_CLAIM}version`]: '11.3' }) }));
    test('no LTI version', () =>
      refusedWith('INVALID_LTI_MESSAGE', { claims: claimsWith(), omit: [`${LTI_CLAIM}version`] }));
    test('not an LTI 1.3 message ({"name": "badltilaunch"} signed)', () =>
      refusedWith('INVALID_LTI_MESSAGE', {
        omit: Object.keys(claimsWith()).filter((k) => k.startsWith(LTI_CLAIM)),
        claims: { name: 'badltilaunch' },
      }));
    test('required claims missing (aud, iss, sub, deployment_id, roles)', () =>
      refusedWith('INVALID_CLAIMS', {
        claims: claimsWith(),
        omit: ['aud', 'iss', 'sub', `${LTI_CLAIM}deployment_id`, `${LTI_CLAIM}roles`],
      }));
    test('timestamps incorrect (iat 11111, exp 22222)', () =>
      refusedWith('INVALID_CLAIMS', { claims: claimsWith(), iat: 11111, exp: 22222 }));
    test('message_type missing', () =>
      refusedWith('INVALID_LTI_MESSAGE', { claims: claimsWith(), omit: [`${LTI_CLAIM}message_type`] }));
    test('wrong message_type', () =>
      refusedWith('INVALID_LTI_MESSAGE', {
        claims: claimsWith({ [`${LTI_CLAIM}message_type`]: 'LtiResourceLinkRequestX' }),
      }));
    test('roles claim missing', () =>
      refusedWith('INVALID_LTI_MESSAGE', { claims: claimsWith(), omit: [`${LTI_CLAIM}roles`] }));
    test('deployment_id missing', () =>
      refusedWith('INVALID_LTI_MESSAGE', { claims: claimsWith(), omit: [`${LTI_CLAIM}deployment_id`] }));
    test('resource_link id missing', () =>
      refusedWith('INVALID_LTI_MESSAGE', { claims: claimsWith(), omit: [`${LTI_CLAIM}resource_link`] }));
    test('sub missing', () => refusedWith('INVALID_LTI_MESSAGE', { claims: claimsWith(), omit: ['sub'] }));
    test('wrong iss', () =>
      refusedWith('INVALID_CLAIMS', { claims: claimsWith({ iss: 'https://not-the-platform.test' }) }));
    test('wrong aud', () => refusedWith('INVALID_CLAIMS', { claims: claimsWith(), aud: 'another-tool' }));
    test('expired', () =>
      refusedWith('INVALID_CLAIMS', {
        claims: claimsWith(),
        iat: Math.floor(Date.now() / 1000) - 3600,
        exp: Math.floor(Date.now() / 1000) - 600,
      }));
    test('unregistered deployment', () =>
      refusedWith('UNKNOWN_DEPLOYMENT', { claims: claimsWith({ [`${LTI_CLAIM}deployment_id`]: 'nope' }) }));

    test('nonce reuse: the same post again, and the token with another login’s state', async () => {
      const req = await ltiLaunchRequest(t.app, platform, { sub: 'cert-replay', claims: claimsWith() });
      const first = await t.app.inject({ method: 'POST', ...req });
      assert.equal(new URL(first.headers.location as string).pathname, '/lti/launch');
      const again = await t.app.inject({ method: 'POST', ...req });
      assert.equal(again.headers.location, 'http://localhost:8080/lti/error?error=INVALID_STATE');

      const { nonce } = await ltiLogin(t.app, platform);
      const idToken = await signLaunch(platform, { nonce, sub: 'cert-replay', claims: claimsWith() });
      const other = await ltiLogin(t.app, platform);
      const replay = await t.app.inject({
        method: 'POST',
        url: '/api/lti/launch',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ id_token: idToken, state: other.state }).toString(),
      });
      assert.equal(replay.headers.location, 'http://localhost:8080/lti/error?error=INVALID_CLAIMS');
    });
  });
});

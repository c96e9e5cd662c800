import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import {
  LTI_DEEP_LINK_MESSAGES,
  LTI_MESSAGES,
  type LtiDeepLinkAnswer,
  type LtiDeepLinkRequest,
  type LtiJwks,
} from '@portal/contract';
import { DEEP_LINK_RESPONSE_TTL_SECONDS } from '../../../../../src/lti/deep-linking';
import { DEEP_LINKING_CLAIM } from '../../../../../src/lti/validate-launch';
import { formActionSource } from '../../../../../src/routes/api/lti/deep-link/index';
import { account, buildTestApp, type TestApp } from '../../../../helper';
import { ltiLaunch, registerPlatform } from '../../../../lti/lti-fixtures';
import {
  createTestPlatform,
  ROLES,
  serveJwks,
  type TestPlatform,
} from '../../../../lti/platform-fixtures';
import { leafId, productId, userHeaders } from '../simulator/session-fixtures';
import { deepLinkLaunch, RETURN_URL } from './deep-link-fixtures';

const educator = account('educator', 'Demo Hospital');
const orgAdmin = account('org admin', 'Demo Hospital');
const learner = account('learner', 'Demo Hospital');

const LTI = 'https://purl.imsglobal.org/spec/lti/claim/';
const DL = 'https://purl.imsglobal.org/spec/lti-dl/claim/';

/**
 * Deep Linking 2.0 end to end in-process: a test platform's signed LtiDeepLinkingRequest through
 * the real login and launch, the picker's API, the signed LtiDeepLinkingResponse verified with
 * the tool's published JWKS, and the page that posts it on.
 */
describe('LTI Deep Linking 2.0', () => {
  let t: TestApp;
  let platform: TestPlatform;
  let jwks: Awaited<ReturnType<typeof serveJwks>>;
  let radiography: number;
  let knee: number;

  before(async () => {
    t = await buildTestApp();
    platform = await createTestPlatform('https://lms.test', 'portal-client');
    jwks = await serveJwks(() => [platform.publicJwk]);
    await registerPlatform(t.db, platform, jwks.url, 'Demo Hospital');
    radiography = await productId(t.db, 'radiography');
    knee = await leafId(t.db, 'radiography.lower-limb.knee');
  });
  after(async () => {
    await t.close();
    await jwks.close();
  });

  const get = async (launchId: string, as = educator) =>
    t.app.inject({
      method: 'GET',
      url: `/api/v1/lti/deep-link/${launchId}`,
      headers: await userHeaders(as.sub),
    });
  const answer = async (launchId: string, payload: Record<string, unknown>, as = educator) =>
    t.app.inject({
      method: 'POST',
      url: `/api/v1/lti/deep-link/${launchId}`,
      headers: await userHeaders(as.sub),
      payload,
    });
  const knees = () => ({ productId: radiography, categoryId: knee, mode: 'Desktop' });
  const returnPage = (launchId: string, fields: Record<string, string>) =>
    t.app.inject({
      method: 'POST',
      url: `/api/lti/deep-link/${launchId}/return`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(fields).toString(),
    });

  test('the launch records the request and sends the instructor to the picker', async () => {
    const launchId = await deepLinkLaunch(t.app, platform);
    const res = await get(launchId);
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json<LtiDeepLinkRequest>();
    assert.equal(body.launchId, launchId);
    assert.deepEqual(body.platform, { issuer: platform.issuer, organisationName: 'Demo Hospital' });
    assert.deepEqual(body.acceptTypes, ['ltiResourceLink']);
    assert.equal(body.title, 'Week 3 practice');
    // Demo Hospital's current licence: radiography VR + Desktop, radiation safety Desktop (its
    // VR licence ran out in 2024), birthing VR + Desktop.
    assert.deepEqual(
      body.products.map((p) => [p.code, p.modes]),
      [
        ['radiography', ['VR', 'Desktop']],
        ['radiation-safety', ['Desktop']],
        ['birthing', ['VR', 'Desktop']],
      ],
    );
    assert.equal(body.products[0]!.protocol, 'vmc-radiography');
  });

  test('answers a signed LtiDeepLinkingResponse that verifies with the tool JWKS, once', async () => {
    const launchId = await deepLinkLaunch(t.app, platform);
    const before = Math.floor(Date.now() / 1000);
    const res = await answer(launchId, knees());
    assert.equal(res.statusCode, 200, res.body);
    const { returnUrl, jwt } = res.json<LtiDeepLinkAnswer>();
    assert.equal(returnUrl, RETURN_URL);

    const published = (await t.app.inject({ method: 'GET', url: '/api/lti/jwks' })).json<LtiJwks>();
    const header = decodeProtectedHeader(jwt);
    assert.equal(header.alg, 'RS256');
    assert.ok(
      published.keys.some((k) => k.kid === header.kid),
      'signed with a published kid',
    );
    const { payload } = await jwtVerify(jwt, createLocalJWKSet(published), {
      algorithms: ['RS256'],
      issuer: platform.clientId,
      audience: platform.issuer,
    });
    assert.ok(payload.iat! >= before - 1 && payload.iat! <= before + 5);
    assert.equal(payload.exp! - payload.iat!, DEEP_LINK_RESPONSE_TTL_SECONDS);
    assert.match(String(payload.nonce), /^[A-Za-z0-9_-]{32}$/);
    assert.equal(payload[`${LTI}deployment_id`], platform.deploymentId);
    assert.equal(payload[`${LTI}message_type`], 'LtiDeepLinkingResponse');
    assert.equal(payload[`${LTI}version`], '1.3.0');
    assert.equal(payload[`${DL}data`], 'opaque-platform-data-42');
    const title = 'Radiography › Lower limb › Knee — Desktop';
    assert.deepEqual(payload[`${DL}content_items`], [
      {
        type: 'ltiResourceLink',
        title,
        url: 'http://localhost:8080/api/lti/launch',
        custom: {
          configuration: 'radiography.lower-limb.knee',
          protocol: 'vmc-radiography',
          productId: String(radiography),
          mode: 'Desktop',
        },
        lineItem: {
          scoreMaximum: 100,
          label: title,
          resourceId: 'radiography:radiography.lower-limb.knee:Desktop',
          tag: 'simulation-score',
        },
      },
    ]);
    assert.deepEqual(
      Object.keys(payload).sort(),
      [
        `${DL}content_items`,
        `${DL}data`,
        `${LTI}deployment_id`,
        `${LTI}message_type`,
        `${LTI}version`,
        'aud',
        'exp',
        'iat',
        'iss',
        'nonce',
      ].sort(),
    );

    // Single use: neither the picker nor a second answer gets the request again.
    for (const again of [await answer(launchId, knees()), await get(launchId)]) {
      assert.equal(again.statusCode, 409, again.body);
      assert.deepEqual(again.json(), { launchId: [LTI_DEEP_LINK_MESSAGES.answered] });
    }
  });

  test('the linked resource really starts that simulation: its launch names it to the host', async () => {
    const launchId = await deepLinkLaunch(t.app, platform);
    const { jwt } = (await answer(launchId, { ...knees(), mode: 'VR' })).json<LtiDeepLinkAnswer>();
    const { payload } = await jwtVerify(
      jwt,
      createLocalJWKSet((await t.app.inject({ url: '/api/lti/jwks' })).json<LtiJwks>()),
    );
    const [item] = payload[`${DL}content_items`] as Array<{ custom: Record<string, string> }>;
    // The platform launches the link with the item's custom parameters (LTI Core §5.4.6).
    const to = await ltiLaunch(t.app, platform, {
      sub: 'lms-student',
      email: learner.email,
      claims: { [`${LTI}custom`]: item!.custom },
    });
    assert.equal(to.pathname, '/lti/launch');
    assert.deepEqual(Object.fromEntries([...to.searchParams].filter(([k]) => k !== 'launchId')), {
      configuration: 'radiography.lower-limb.knee',
      protocol: 'vmc-radiography',
      productId: String(radiography),
      mode: 'VR',
    });
    // …and the learner's session starts with exactly those parameters.
    const session = await t.app.inject({
      method: 'POST',
      url: `/api/v1/product/${radiography}/session`,
      headers: await userHeaders(learner.sub),
      payload: {
        configuration: to.searchParams.get('configuration'),
        mode: to.searchParams.get('mode'),
        ltiLaunchId: to.searchParams.get('launchId'),
      },
    });
    assert.equal(session.statusCode, 201, session.body);
  });

  test('titles are in the caller’s language; data is echoed only when sent; no line item when refused', async () => {
    // Before the org admin's first request, so no cached user of theirs holds the old language.
    await t.db.query(`update users set language = 'de' where id = $1`, [orgAdmin.sub]);
    const launchId = await deepLinkLaunch(t.app, platform, {
      sub: 'lms-orgadmin',
      email: orgAdmin.email,
      settings: { data: undefined, accept_lineitem: false },
    });
    const res = await answer(launchId, knees(), orgAdmin);
    assert.equal(res.statusCode, 200, res.body);
    const { payload } = await jwtVerify(
      res.json<LtiDeepLinkAnswer>().jwt,
      createLocalJWKSet((await t.app.inject({ url: '/api/lti/jwks' })).json<LtiJwks>()),
    );
    assert.equal(payload[`${DL}data`], undefined);
    const [item] = payload[`${DL}content_items`] as Array<Record<string, unknown>>;
    assert.equal(item!.lineItem, undefined);
    // The catalogue's German names, as the picker showed them.
    const tree = await t.app.inject({
      url: `/api/v1/product/${radiography}/category?language=de`,
      headers: await userHeaders(orgAdmin.sub),
    });
    const [products] = [
      await t.app.inject({
        url: '/api/v1/product?language=de',
        headers: await userHeaders(orgAdmin.sub),
      }),
    ];
    const name = products
      .json<Array<{ id: number; name: string }>>()
      .find((p) => p.id === radiography)!.name;
    const lower = tree
      .json<Array<{ displayName: string; children: Array<{ id: number; displayName: string }> }>>()
      .find((c) => c.children.some((k) => k.id === knee))!;
    const kneeName = lower.children.find((k) => k.id === knee)!.displayName;
    assert.equal(item!.title, `${name} › ${lower.displayName} › ${kneeName} — Desktop`);
    assert.notEqual(kneeName, 'Knee', 'the seed translates the knee');
  });

  describe('refusals', () => {
    test('someone else’s launch and an unknown one are 404', async () => {
      const launchId = await deepLinkLaunch(t.app, platform);
      for (const res of [
        await get(launchId, orgAdmin),
        await answer(launchId, knees(), orgAdmin),
        await get('00000000-0000-4000-8000-000000000000'),
      ]) {
        assert.equal(res.statusCode, 404, res.body);
      }
      assert.equal((await get('not-a-uuid')).statusCode, 400);
      // The owner still can: the foreign calls changed nothing.
      assert.equal((await answer(launchId, knees())).statusCode, 200);
    });

    test('a resource link launch is no deep linking request', async () => {
      const to = await ltiLaunch(t.app, platform, {
        sub: 'lms-teacher',
        email: educator.email,
        roles: [ROLES.instructor],
      });
      const res = await answer(to.searchParams.get('launchId')!, knees());
      assert.equal(res.statusCode, 400);
      assert.deepEqual(res.json(), { launchId: [LTI_DEEP_LINK_MESSAGES.notDeepLinking] });
    });

    test('a request older than the launch limit has expired', async () => {
      const launchId = await deepLinkLaunch(t.app, platform);
      await t.db.query(
        `update lti_launches set created_at = now() - interval '2 hours 1 minute' where id = $1`,
        [launchId],
      );
      for (const res of [await get(launchId), await answer(launchId, knees())]) {
        assert.equal(res.statusCode, 400);
        assert.deepEqual(res.json(), { launchId: [LTI_MESSAGES.launchExpired] });
      }
    });

    test('a learner may not answer: by portal role (403) or by the platform’s role (403, field)', async () => {
      const asLearner = await deepLinkLaunch(t.app, platform, {
        sub: 'lms-learner',
        email: learner.email,
        roles: [ROLES.learner],
      });
      assert.equal((await answer(asLearner, knees(), learner)).statusCode, 403);
      // An educator of the portal whom the course lists as a learner.
      const learnerInCourse = await deepLinkLaunch(t.app, platform, { roles: [ROLES.learner] });
      const res = await answer(learnerInCourse, knees());
      assert.equal(res.statusCode, 403);
      assert.deepEqual(res.json(), { launchId: [LTI_DEEP_LINK_MESSAGES.notInstructor] });
    });

    test('a platform that accepts no resource links, or names no http(s) return URL', async () => {
      for (const settings of [
        { accept_types: ['file', 'html'] },
        { deep_link_return_url: 'javascript:alert(1)' },
      ]) {
        const launchId = await deepLinkLaunch(t.app, platform, { settings });
        const res = await get(launchId);
        assert.equal(res.statusCode, 400, JSON.stringify(settings));
        assert.deepEqual(res.json(), { launchId: [LTI_DEEP_LINK_MESSAGES.notDeepLinking] });
      }
    });

    test('the choice: unlicensed product, non-leaf or foreign category, unlicensed or unknown mode', async () => {
      const unlicensed = (
        await t.db.query<{ id: number }>(
          `insert into products (code, name, protocol) values ('unlicensed-dl', 'Unlicensed', 'vmc-x')
           returning id`,
        )
      ).rows[0]!.id;
      const lowerLimb = (
        await t.db.query<{ id: number }>(
          `select parent_id as id from product_categories where id = $1`,
          [knee],
        )
      ).rows[0]!.id;
      const safety = await productId(t.db, 'radiation-safety');
      const safetyLeaf = await leafId(t.db, 'radiation-safety.lesson.shielding').catch(
        async () =>
          (
            await t.db.query<{ id: number }>(
              `select id from product_categories where product_id = $1
               and simulation_configuration is not null order by id limit 1`,
              [safety],
            )
          ).rows[0]!.id,
      );
      const launchId = await deepLinkLaunch(t.app, platform);
      const cases: Array<[Record<string, unknown>, Record<string, string[]>]> = [
        [
          { ...knees(), productId: unlicensed },
          { productId: [LTI_DEEP_LINK_MESSAGES.unlicensedProduct] },
        ],
        [{ ...knees(), categoryId: lowerLimb }, { categoryId: [LTI_DEEP_LINK_MESSAGES.notLeaf] }],
        [{ ...knees(), categoryId: safetyLeaf }, { categoryId: [LTI_DEEP_LINK_MESSAGES.notLeaf] }],
        [
          { productId: safety, categoryId: safetyLeaf, mode: 'VR' },
          { mode: [LTI_DEEP_LINK_MESSAGES.unlicensedMode] },
        ],
      ];
      for (const [payload, errors] of cases) {
        const res = await answer(launchId, payload);
        assert.equal(res.statusCode, 400, JSON.stringify(payload));
        assert.deepEqual(res.json(), errors);
      }
      const unknownMode = await answer(launchId, { ...knees(), mode: 'Hologram' });
      assert.equal(unknownMode.statusCode, 400);
      assert.ok('mode' in unknownMode.json(), unknownMode.body);
      // None of the refusals used the request up.
      assert.equal((await answer(launchId, knees())).statusCode, 200);
    });

    test('a leaf without a configuration cannot be linked', async () => {
      const launchId = await deepLinkLaunch(t.app, platform);
      await t.db.query(
        `update product_categories set simulation_configuration = null where id = $1`,
        [knee],
      );
      try {
        const res = await answer(launchId, knees());
        assert.equal(res.statusCode, 400);
        assert.deepEqual(res.json(), { categoryId: [LTI_DEEP_LINK_MESSAGES.noConfiguration] });
      } finally {
        await t.db.query(
          `update product_categories set simulation_configuration = 'radiography.lower-limb.knee'
            where id = $1`,
          [knee],
        );
      }
    });
  });

  describe('POST /api/lti/deep-link/{launchId}/return', () => {
    test('posts the answer on to the return URL under a policy allowing that URL only', async () => {
      const launchId = await deepLinkLaunch(t.app, platform);
      const { jwt, returnUrl } = (await answer(launchId, knees())).json<LtiDeepLinkAnswer>();
      const res = await returnPage(launchId, { JWT: jwt, language: 'de' });
      assert.equal(res.statusCode, 200, res.body);
      assert.match(String(res.headers['content-type']), /^text\/html/);
      assert.equal(res.headers['cache-control'], 'no-store');
      const csp = String(res.headers['content-security-policy']);
      const directives = Object.fromEntries(
        csp.split(';').map((d) => {
          const [name, ...values] = d.trim().split(/\s+/);
          return [name, values];
        }),
      );
      assert.deepEqual(directives['form-action'], ['https://lms.test/deep-link/return']);
      assert.deepEqual(directives['default-src'], ["'none'"]);
      // The picker may be in the platform's frame (an embedded launch): the registered platforms may frame it.
      assert.ok(directives['frame-ancestors']!.includes('https://lms.test'), csp);
      assert.ok(!directives['frame-ancestors']!.includes("'none'"), csp);
      assert.equal(res.headers['x-frame-options'], undefined);
      assert.equal(directives['script-src']!.length, 1);
      assert.match(directives['script-src']![0]!, /^'sha256-[A-Za-z0-9+/=]+'$/);
      const html = res.body;
      assert.match(html, /<html lang="de">/);
      const action = /<form id="return" method="post" action="([^"]+)">/.exec(html)?.[1];
      assert.equal(action?.replaceAll('&amp;', '&'), returnUrl);
      assert.ok(html.includes(`<input type="hidden" name="JWT" value="${jwt}">`));
      assert.ok(html.includes('Weiter'));
      // The one inline script is the one the policy's hash allows.
      const script = /<script>([\s\S]*?)<\/script>/.exec(html)![1]!;
      const { createHash } = await import('node:crypto');
      assert.equal(
        directives['script-src']![0],
        `'sha256-${createHash('sha256').update(script).digest('base64')}'`,
      );
      // A reload posts it again while it is valid.
      assert.equal((await returnPage(launchId, { JWT: jwt })).statusCode, 200);
    });

    test('posts nothing the API did not sign for that launch', async () => {
      const launchId = await deepLinkLaunch(t.app, platform);
      const other = await deepLinkLaunch(t.app, platform);
      const unanswered = await deepLinkLaunch(t.app, platform);
      const { jwt } = (await answer(launchId, knees())).json<LtiDeepLinkAnswer>();
      const [h, p, s] = jwt.split('.');
      const cases: Array<[string, string]> = [
        [other, jwt],
        [unanswered, jwt],
        [launchId, `${h}.${p}.${s!.slice(0, -2)}AA`],
        [launchId, 'x'],
        ['00000000-0000-4000-8000-000000000000', jwt],
      ];
      for (const [id, token] of cases) {
        const res = await returnPage(id, { JWT: token });
        assert.equal(res.statusCode, 400, `${id} ${token.slice(-8)}`);
        assert.deepEqual(res.json(), { JWT: [LTI_DEEP_LINK_MESSAGES.invalidResponse] });
      }
      // After the JWT's lifetime it is not posted either.
      await t.db.query(
        `update lti_launches
            set deep_linking_settings = jsonb_set(deep_linking_settings, '{portal_answer,at}',
                  to_jsonb(now() - interval '11 minutes'))
          where id = $1`,
        [launchId],
      );
      assert.equal((await returnPage(launchId, { JWT: jwt })).statusCode, 400);
      assert.equal((await returnPage(launchId, {})).statusCode, 400);
    });

    test('the form-action source keeps CSP separators out', () => {
      assert.equal(
        formActionSource('https://lms.test/a;b,c d/x?y=1;z'),
        'https://lms.test/a%3Bb%2Cc%20d/x',
      );
      assert.equal(formActionSource('http://lms.test:8443/'), 'http://lms.test:8443/');
    });
  });

  test('the settings claim name is the standard one', () => {
    assert.equal(DEEP_LINKING_CLAIM, `${DL}deep_linking_settings`);
  });
});

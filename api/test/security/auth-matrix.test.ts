import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { ORGANISATION_DEACTIVATED, type CreatedSession } from '@portal/contract';
import { hashSessionToken, newSessionToken } from '../../src/lib/session-token';
import type { RouteAccessEntry } from '../../src/plugins/app/access';
import { createReport, type CreatedReport } from '../factories/reports';
import {
  account,
  buildTestApp,
  hs256WithPublicKey,
  signIdToken,
  signToken,
  unsignedToken,
  xsrfHeaders,
  type TestApp,
} from '../helper';
import {
  dataPart,
  imagePart,
  multipart,
  xrayEvidence,
} from '../routes/api/v1/simulator/session-fixtures';
import {
  licenseInput,
  licenseOf,
  organisationId,
  organisationInput,
} from '../routes/api/v1/organisation/admin-fixtures';
import { userAdminFixtures } from '../routes/api/v1/user/security-fixtures';
import { emailChangeFixtures } from '../routes/api/v1/user/email-change-fixtures';
import { simulationDownloadFixtures } from '../routes/api/v1/product/simulation-download-fixtures';
import { notificationFixtures } from '../routes/api/v1/notification/notification-fixtures';
import { productConfigurationFixtures } from '../routes/api/v1/product/configuration-fixtures';
import { configurationSchemaFixtures } from '../routes/api/v1/product/configuration-schema-fixtures';
import { markingSchemeFixtures } from '../routes/api/v1/product/marking-scheme-fixtures';
import { releaseGradeFixtures } from '../routes/api/v1/report/release-grade-fixtures';
import { insightFixtures } from '../routes/api/v1/organisation/insight-fixtures';
import { feedbackFixtures } from '../routes/api/v1/report/feedback-fixtures';
import { ltiFixtures } from '../routes/api/v1/lti/lti-security-fixtures';
import { ltiRegistrationFixtures } from '../routes/api/v1/lti/registration-fixtures';
import {
  brightspaceFixtures,
  suiteBrightspace,
} from '../brightspace/brightspace-security-fixtures';
import { deepLinkFixtures } from '../routes/api/v1/lti/deep-link-fixtures';
import { rosterSyncFixtures } from '../routes/api/v1/lti/roster-sync-fixtures';
import { launchWindowFixtures } from '../routes/api/v1/lti/launch-window-fixtures';
import { launchOwnerFixtures } from '../routes/api/v1/lti/launch-owner-fixtures';
import { BROKER, brokerFixtures } from '../routes/lti/broker-fixtures';
import type { Fixture, Req } from './suite-shapes';

/**
 * Every route the API registers × every way to call it without the right to: never 2xx, never 5xx.
 * The routes come from the registry (`app.routeAccess`), so a new route without a fixture below
 * fails the suite instead of going unchecked. Each fixture also has a positive control: the same
 * request with a good credential answers 2xx, so a refusal below is the credential's doing and
 * not a broken fixture's.
 */

type Account = ReturnType<typeof account>;

const learner = account('learner', 'Demo Hospital');
const educator = account('educator', 'Demo Hospital');
const orgAdmin = account('org admin', 'Demo Hospital');
const otherLearner = account('learner', 'Other College');

interface Ctx {
  t: TestApp;
  products: Record<'radiography' | 'birthing', number>;
  reports: Record<'learner' | 'other', CreatedReport>;
  installers: Record<'radiography' | 'birthing', string>;
  userFiles: Record<'demo' | 'other', string>;
  deletedSub: string;
  /** A real configuration of a product Other College has no licence for. */
  birthingConfiguration: string;
  learnerPermissions: readonly string[];
  /** A deactivated organisation: a member per role (global administrators are not stopped). */
  closed: { members: Partial<Record<Account['role'], string>>; sessionToken: string };
}

let ctx: Ctx;

async function createSession(as: Account, product = ctx.products.radiography) {
  const res = await ctx.t.app.inject({
    method: 'POST',
    url: `/api/v1/product/${product}/session`,
    headers: { ...(await bearer(as.sub)), ...xsrfHeaders() },
    payload: { configuration: 'radiography.lower-limb.knee', mode: 'Desktop' },
  });
  assert.equal(res.statusCode, 201, res.body);
  return res.json<CreatedSession>();
}

async function joinedSession(as: Account = learner) {
  const session = await createSession(as);
  const res = await ctx.t.app.inject({
    method: 'POST',
    url: '/api/v1/simulator/session/join',
    headers: { authorization: `Session ${session.token}` },
  });
  assert.equal(res.statusCode, 200, res.body);
  return session;
}

async function bearer(sub: string) {
  return { authorization: `Bearer ${await signToken(sub)}` };
}

const userRoute = (path: string, extra?: (as: Account) => Omit<Req, 'url'>): Fixture => ({
  build: async (as) => ({ url: `/api/v1/user/${as.sub}/${path}`, ...extra?.(as) }),
  foreign: async () => [
    {
      as: learner,
      what: "a learner of Demo Hospital, another organisation's learner's id",
      req: { url: `/api/v1/user/${otherLearner.sub}/${path}`, ...extra?.(learner) },
    },
    {
      as: educator,
      what: "an educator of Demo Hospital, another organisation's learner's id",
      req: { url: `/api/v1/user/${otherLearner.sub}/${path}`, ...extra?.(educator) },
    },
    {
      as: otherLearner,
      what: 'a learner of Other College, a Demo Hospital learner’s id',
      req: { url: `/api/v1/user/${learner.sub}/${path}`, ...extra?.(otherLearner) },
    },
  ],
});

/** Session routes of the learner side, on a fresh session of the caller's. */
const learnerSessionRoute = (action: 'status' | 'complete' | 'close'): Fixture => ({
  build: async (as) => {
    const { uuid } = await createSession(as);
    return { url: `/api/v1/product/${ctx.products.radiography}/session/${uuid}/${action}` };
  },
  foreign: async () => {
    const other = await createSession(otherLearner);
    const mine = await createSession(learner);
    const url = (uuid: string) =>
      `/api/v1/product/${ctx.products.radiography}/session/${uuid}/${action}`;
    return [
      {
        as: learner,
        what: "another organisation's learner's session",
        req: { url: url(other.uuid) },
      },
      {
        as: educator,
        what: "another organisation's learner's session",
        req: { url: url(other.uuid) },
      },
      { as: otherLearner, what: "a Demo Hospital learner's session", req: { url: url(mine.uuid) } },
    ];
  },
});

const reportUrl = (report: CreatedReport, rest = '') => `/api/v1/report/${report.uuid}${rest}`;

/** Report routes: the caller's own report, then other organisations' reports. */
const reportRoute = (
  rest: (report: CreatedReport) => string,
  payload?: Record<string, unknown>,
): Fixture => ({
  build: async () => ({ url: reportUrl(ctx.reports.learner, rest(ctx.reports.learner)), payload }),
  foreign: async () => {
    const { learner: mine, other } = ctx.reports;
    return [
      {
        as: learner,
        what: "another organisation's learner's report",
        req: { url: reportUrl(other, rest(other)), payload },
      },
      {
        as: educator,
        what: "another organisation's learner's report",
        req: { url: reportUrl(other, rest(other)), payload },
      },
      {
        as: orgAdmin,
        what: "another organisation's learner's report",
        req: { url: reportUrl(other, rest(other)), payload },
      },
      {
        as: otherLearner,
        what: "a Demo Hospital learner's report",
        req: { url: reportUrl(mine, rest(mine)), payload },
      },
      // The caller's own report with another report's evidence id.
      ...(rest(mine) !== rest(other)
        ? [
            {
              as: learner,
              what: 'own report, evidence of another organisation’s report',
              req: { url: reportUrl(mine, rest(other)), payload },
            },
          ]
        : []),
    ];
  },
});

const evidenceImageKey = async (report: CreatedReport) => {
  const res = await ctx.t.db.query<{ storage_key: string }>(
    `select f.storage_key from evidence e join files f on f.id = e.image_file_id
      where e.session_uuid = $1 order by e.position limit 1`,
    [report.uuid],
  );
  const key = res.rows[0]?.storage_key;
  assert.ok(key, 'the report has an evidence image');
  return key;
};

/** Administration (issue #8): organisations, their licences and the audit log. */
const sysAdmin = account('sys admin');
interface AdminCtx {
  org: Record<'demo' | 'other', number>;
  license: Record<'demo' | 'other', number>;
}
let admin: AdminCtx;

async function adminContext(t: TestApp): Promise<AdminCtx> {
  return {
    org: {
      demo: await organisationId(t.db, 'Demo Hospital'),
      other: await organisationId(t.db, 'Other College'),
    },
    license: {
      demo: await licenseOf(t.db, 'Demo Hospital'),
      other: await licenseOf(t.db, 'Other College'),
    },
  };
}

const orgUrl = (org: number, rest = '') => `/api/v1/organisation/${org}${rest}`;
const licenseUrl = (org: number, license: number, rest = '') =>
  orgUrl(org, `/license-block/${license}${rest}`);

/**
 * A licence route: the control as `actor` on a Demo Hospital licence; refused for another
 * organisation's licence, and for its id under Demo Hospital's path.
 */
const licenseRoute = (
  actor: Account,
  rest: string,
  payload?: () => Promise<Record<string, unknown>>,
): Fixture => ({
  actor,
  build: async () => ({
    url: licenseUrl(admin.org.demo, admin.license.demo, rest),
    ...(payload ? { payload: await payload() } : {}),
  }),
  foreign: async () => [
    ...(actor === orgAdmin
      ? [
          {
            as: orgAdmin,
            what: "another organisation's licence",
            req: {
              url: licenseUrl(admin.org.other, admin.license.other, rest),
              ...(payload ? { payload: await payload() } : {}),
            },
          },
        ]
      : []),
    {
      as: actor,
      what: "another organisation's licence under the own organisation's path",
      req: {
        url: licenseUrl(admin.org.demo, admin.license.other, rest),
        ...(payload ? { payload: await payload() } : {}),
      },
    },
  ],
});

const adminFixtures = (): Record<string, Fixture> => ({
  'GET /api/v1/organisation': {
    actor: orgAdmin,
    build: async () => ({ url: '/api/v1/organisation' }),
  },
  'POST /api/v1/organisation': {
    actor: sysAdmin,
    build: async () => ({
      url: '/api/v1/organisation',
      payload: { ...(await organisationInput(ctx.t.db)) },
    }),
  },
  'GET /api/v1/organisation/:id': {
    actor: orgAdmin,
    build: async () => ({ url: orgUrl(admin.org.demo) }),
    foreign: async () => [
      { as: orgAdmin, what: 'another organisation', req: { url: orgUrl(admin.org.other) } },
    ],
  },
  'PUT /api/v1/organisation/:id': {
    actor: orgAdmin,
    build: async () => ({
      url: orgUrl(admin.org.demo),
      payload: { ...(await organisationInput(ctx.t.db, { name: 'Demo Hospital' })) },
    }),
    foreign: async () => [
      {
        as: orgAdmin,
        what: 'another organisation',
        req: {
          url: orgUrl(admin.org.other),
          payload: { ...(await organisationInput(ctx.t.db, { name: 'Other College' })) },
        },
      },
    ],
  },
  'GET /api/v1/organisation/:id/license-block': {
    actor: orgAdmin,
    build: async () => ({ url: orgUrl(admin.org.demo, '/license-block') }),
    foreign: async () => [
      {
        as: orgAdmin,
        what: "another organisation's licences",
        req: { url: orgUrl(admin.org.other, '/license-block') },
      },
    ],
  },
  'POST /api/v1/organisation/:id/license-block': {
    actor: sysAdmin,
    build: async () => ({
      url: orgUrl(admin.org.demo, '/license-block'),
      payload: { ...(await licenseInput(ctx.t.db)) },
    }),
    foreign: async () => [
      {
        as: orgAdmin,
        what: "another organisation's licences (without create_license_block)",
        req: {
          url: orgUrl(admin.org.other, '/license-block'),
          payload: { ...(await licenseInput(ctx.t.db)) },
        },
      },
    ],
  },
  'GET /api/v1/organisation/:id/license-block/:licenseId': licenseRoute(orgAdmin, ''),
  'PUT /api/v1/organisation/:id/license-block/:licenseId': licenseRoute(sysAdmin, '', async () => ({
    ...(await licenseInput(ctx.t.db, { numberOfSeats: 50 })),
  })),
  'GET /api/v1/organisation/:id/license-block/:licenseId/user': licenseRoute(orgAdmin, '/user'),
  'GET /api/v1/audit': {
    actor: orgAdmin,
    build: async () => ({ url: `/api/v1/audit?organisation=${admin.org.demo}` }),
    foreign: async () => [
      {
        as: orgAdmin,
        what: "another organisation's audit entries",
        req: { url: `/api/v1/audit?organisation=${admin.org.other}` },
      },
    ],
  },
});

/** Keyed by `METHOD url` exactly as the registry has it; HEAD routes use their GET's fixture. */
const fixtures: Record<string, Fixture> = {
  'GET /healthz': { build: async () => ({ url: '/healthz' }) },
  'GET /readyz': { build: async () => ({ url: '/readyz' }) },
  // Its own credential is METRICS_TOKEN (test/ops/metrics.test.ts): no portal credential of any
  // kind may open it, so every cell answers the 401 of a request without one.
  'GET /metrics': {
    build: async () => ({ url: '/metrics' }),
    succeeded: (res) => res.statusCode === 401,
  },
  'GET /api/docs/openapi.json': { build: async () => ({ url: '/api/docs/openapi.json' }) },
  'GET /api/v1/user/whoami': { build: async () => ({ url: '/api/v1/user/whoami' }) },
  'GET /api/v1/user/:id/cookie-preference': userRoute('cookie-preference'),
  'PUT /api/v1/user/:id/cookie-preference': userRoute('cookie-preference', () => ({
    payload: { allowEssentialCookies: true },
  })),
  'GET /api/v1/user/:id/preference': userRoute('preference'),
  'PUT /api/v1/user/:id/preference': userRoute('preference', (as) => ({
    payload: { language: as.language, skinTone: null },
  })),
  'GET /api/v1/user/:id/entitlement-mode/:productId': {
    build: async (as) => ({
      url: `/api/v1/user/${as.sub}/entitlement-mode/${ctx.products.radiography}`,
    }),
    foreign: async () => [
      ...(await userRoute(`entitlement-mode/${ctx.products.radiography}`).foreign!()),
      {
        as: otherLearner,
        what: "a product only another organisation's licence covers",
        req: { url: `/api/v1/user/${otherLearner.sub}/entitlement-mode/${ctx.products.birthing}` },
      },
    ],
  },
  'GET /api/v1/user/:id/simulation-download': userRoute('simulation-download'),
  'GET /api/v1/product': { build: async () => ({ url: '/api/v1/product' }) },
  'GET /api/v1/product/:productId/category': {
    build: async () => ({ url: `/api/v1/product/${ctx.products.radiography}/category` }),
    foreign: async () => [
      {
        as: otherLearner,
        what: "a product only another organisation's licence covers",
        req: { url: `/api/v1/product/${ctx.products.birthing}/category` },
      },
    ],
  },
  'POST /api/v1/product/:productId/session': {
    build: async () => ({
      url: `/api/v1/product/${ctx.products.radiography}/session`,
      payload: { configuration: 'radiography.lower-limb.knee', mode: 'Desktop' },
    }),
    foreign: async () => [
      {
        as: otherLearner,
        what: "a product only another organisation's licence covers",
        req: {
          url: `/api/v1/product/${ctx.products.birthing}/session`,
          payload: { configuration: ctx.birthingConfiguration, mode: 'Desktop' },
        },
      },
    ],
  },
  'GET /api/v1/product/:productId/session/:uuid/status': learnerSessionRoute('status'),
  'POST /api/v1/product/:productId/session/:uuid/complete': learnerSessionRoute('complete'),
  'POST /api/v1/product/:productId/session/:uuid/close': learnerSessionRoute('close'),
  'POST /api/v1/simulator/session/join': {
    build: async () => {
      const { token } = await createSession(learner);
      return {
        url: '/api/v1/simulator/session/join',
        headers: { authorization: `Session ${token}` },
      };
    },
  },
  'POST /api/v1/simulator/session/evidence': {
    build: async () => {
      const { token } = await joinedSession();
      const body = await multipart([dataPart(xrayEvidence()), imagePart()]);
      return {
        url: '/api/v1/simulator/session/evidence',
        headers: { authorization: `Session ${token}`, 'content-type': body.contentType },
        payload: body.payload,
      };
    },
  },
  'POST /api/v1/simulator/session/complete': {
    build: async () => {
      const { token } = await joinedSession();
      return {
        url: '/api/v1/simulator/session/complete',
        headers: { authorization: `Session ${token}` },
        payload: {},
      };
    },
  },
  'GET /api/v1/report': { build: async () => ({ url: '/api/v1/report' }) },
  'GET /api/v1/report/learner': {
    actor: educator,
    // With the one-learner filter (issue #23): another organisation's learner is an empty list,
    // not a refusal (report-list.test.ts), so there is no `foreign` here.
    build: async () => ({ url: `/api/v1/report/learner?learnerId=${learner.sub}` }),
  },
  'GET /api/v1/report/:reportId': reportRoute(() => ''),
  'GET /api/v1/report/:reportId/image/:evidenceId': reportRoute(
    (r) => `/image/${r.evidenceIds[0]}`,
  ),
  'GET /api/v1/report/:reportId/image': reportRoute((r) => `/image?id=${r.evidenceIds[0]}`),
  'PUT /api/v1/report/:reportId/evidence/:evidenceId/analysis': {
    ...reportRoute((r) => `/evidence/${r.evidenceIds[0]}/analysis`, {
      analysisStatus: 22002,
      analysis: 'Well positioned.',
    }),
  },
  'GET /api/v1/file/:id/download/:kind': {
    build: async () => ({
      url: `/api/v1/file/${ctx.installers.radiography}/download/sim-installation-file`,
    }),
    learnerDenied: async () => ({ url: `/api/v1/file/${ctx.userFiles.demo}/download/user` }),
    foreign: async () => [
      {
        as: otherLearner,
        what: "an installer of a product only another organisation's licence covers",
        req: { url: `/api/v1/file/${ctx.installers.birthing}/download/sim-installation-file` },
      },
      {
        as: orgAdmin,
        what: "another organisation's user list upload",
        req: { url: `/api/v1/file/${ctx.userFiles.other}/download/user` },
      },
    ],
  },
  'GET /api/v1/lookup': {
    build: async () => ({ url: '/api/v1/lookup?field=language' }),
    learnerDenied: async () => ({
      url: `/api/v1/lookup?field=organisation_licenses&organisation=${admin.org.demo}`,
    }),
    foreign: async () => [
      {
        as: orgAdmin,
        what: "another organisation's licences",
        req: { url: `/api/v1/lookup?field=organisation_licenses&organisation=${admin.org.other}` },
      },
    ],
  },
  'GET /api/v1/storage/*': {
    build: async () => {
      const key = await evidenceImageKey(ctx.reports.learner);
      return { url: await ctx.t.app.storage.signedUrl(key, { contentType: 'image/png' }) };
    },
    unsigned: async () => {
      const key = await evidenceImageKey(ctx.reports.learner);
      const otherKey = await evidenceImageKey(ctx.reports.other);
      const good = new URL(
        await ctx.t.app.storage.signedUrl(key, { contentType: 'image/png' }),
        'http://x',
      );
      const forged = new URLSearchParams(good.search);
      const sig = forged.get('sig') ?? '';
      forged.set('sig', (sig[0] === 'A' ? 'B' : 'A') + sig.slice(1));
      const otherSigned = new URL(
        await ctx.t.app.storage.signedUrl(otherKey, { contentType: 'image/png' }),
        'http://x',
      );
      const longer = new URLSearchParams(good.search);
      longer.set('type', 'text/html');
      return [
        { what: 'no signature', req: { url: good.pathname } },
        { what: 'forged signature', req: { url: `${good.pathname}?${forged}` } },
        {
          what: 'expired signature',
          req: {
            url: await ctx.t.app.storage.signedUrl(key, {
              contentType: 'image/png',
              ttlSeconds: -60,
            }),
          },
        },
        { what: "another file's signature", req: { url: `${good.pathname}${otherSigned.search}` } },
        {
          what: 'signature with the content type changed',
          req: { url: `${good.pathname}?${longer}` },
        },
      ];
    },
  },
  ...adminFixtures(),
  ...userAdminFixtures(() => ctx.t),
  ...emailChangeFixtures(() => ctx.t),
  ...simulationDownloadFixtures(() => ctx.t),
  ...notificationFixtures(() => ctx.t),
  ...productConfigurationFixtures(() => ctx.t),
  ...markingSchemeFixtures(() => ctx.t),
  ...releaseGradeFixtures(() => ctx.t),
  ...insightFixtures(() => ctx.t),
  ...feedbackFixtures(() => ctx.t),
  ...configurationSchemaFixtures(() => ctx.t),
  ...ltiFixtures(() => ctx.t),
  ...ltiRegistrationFixtures(() => ctx.t),
  ...brokerFixtures(() => ctx.t),
  ...brightspaceFixtures(() => ctx.t),
  ...deepLinkFixtures(() => ctx.t),
  ...rosterSyncFixtures(() => ctx.t),
  ...launchWindowFixtures(() => ctx.t),
  ...launchOwnerFixtures(() => ctx.t),
};

type Kind = 'bearer' | 'session' | 'public' | 'signed';

function kindOf(entry: RouteAccessEntry, fixture: Fixture): Kind {
  if (entry.access === 'session') return 'session';
  if (entry.access === 'public') return fixture.unsigned ? 'signed' : 'public';
  return 'bearer';
}

function fixtureFor(entry: RouteAccessEntry): Fixture | undefined {
  return (
    fixtures[`${entry.method} ${entry.url}`] ??
    (entry.method === 'HEAD' ? fixtures[`GET ${entry.url}`] : undefined)
  );
}

/** One attempt of a cell: a request and the statuses it may answer. */
interface Attempt {
  what?: string;
  as?: Account;
  req: Req;
  /** Bearer token, Session token or nothing, replacing what `req` carries. */
  authorization?: string | null;
  expect: readonly number[];
  /** The answer's `code` too, where the status alone could come from another refusal. */
  code?: string;
}

interface Case {
  name: string;
  /** null: the case does not apply to this route (said why in `na`). */
  attempts(entry: RouteAccessEntry, fixture: Fixture, kind: Kind): Promise<Attempt[] | null>;
}

/** Cases that only change the credential: the request is one the actor may make. */
function credentialCase(
  name: string,
  credential: (as: Account) => Promise<string | null>,
  expect: { bearer: number[]; session?: number[] },
): Case {
  return {
    name,
    async attempts(_entry, fixture, kind) {
      const as = fixture.actor ?? learner;
      const authorization = await credential(as);
      if (kind === 'signed') {
        // A bearer token is no substitute for the signature.
        const [unsigned] = (await fixture.unsigned?.()) ?? [];
        return unsigned ? [{ req: unsigned.req, authorization, expect: [404] }] : null;
      }
      const req = await fixture.build(as);
      if (kind === 'public') return [{ req, authorization, expect: [] }];
      return [
        {
          req,
          authorization,
          expect: kind === 'session' ? (expect.session ?? [401]) : expect.bearer,
        },
      ];
    },
  };
}

const cases: Case[] = [
  credentialCase('no credential', async () => null, { bearer: [401] }),
  credentialCase(
    'expired access token',
    async (as) => `Bearer ${await signToken(as.sub, { expiresIn: -60 })}`,
    { bearer: [401] },
  ),
  credentialCase(
    'wrong issuer',
    async (as) => `Bearer ${await signToken(as.sub, { issuer: 'http://evil.test/realms/main' })}`,
    { bearer: [401] },
  ),
  credentialCase(
    'wrong azp/audience',
    async (as) =>
      `Bearer ${await signToken(as.sub, { claims: { azp: 'other-client', aud: 'other-client' } })}`,
    { bearer: [401] },
  ),
  credentialCase('alg none', async (as) => `Bearer ${unsignedToken(as.sub)}`, { bearer: [401] }),
  credentialCase(
    'HS256 signed with the public key',
    async (as) => `Bearer ${await hs256WithPublicKey(as.sub)}`,
    { bearer: [401] },
  ),
  credentialCase(
    'ID token (identity provider)',
    async (as) => `Bearer ${await signIdToken(as.sub, 'identity')}`,
    { bearer: [401] },
  ),
  credentialCase(
    'ID token (Keycloak)',
    async (as) => `Bearer ${await signIdToken(as.sub, 'keycloak')}`,
    { bearer: [401] },
  ),
  credentialCase(
    'token of a deleted user',
    async () => `Bearer ${await signToken(ctx.deletedSub)}`,
    { bearer: [403] },
  ),
  {
    // Every route stops a deactivated organisation's members, whatever their role; the
    // simulator's calls of a session launched before the deactivation too.
    name: 'member of a deactivated organisation',
    async attempts(_entry, fixture, kind) {
      if (kind === 'session') {
        const req = await fixture.build(learner);
        const authorization = `Session ${ctx.closed.sessionToken}`;
        return [{ req, authorization, expect: [403], code: ORGANISATION_DEACTIVATED }];
      }
      if (kind !== 'bearer') return null;
      const as = fixture.actor ?? learner;
      const member = ctx.closed.members[as.role];
      if (!member) return null;
      return [
        {
          what: `a ${as.role} of Closed Clinic`,
          req: await fixture.build(as),
          authorization: `Bearer ${await signToken(member)}`,
          expect: [403],
          code: ORGANISATION_DEACTIVATED,
        },
      ];
    },
  },
  {
    // Bearer routes take it as their control; everywhere else a user's token opens nothing.
    name: 'valid access token on a non-bearer route',
    async attempts(entry, fixture, kind) {
      if (kind === 'bearer') return null;
      return credentialCase('', async (as) => `Bearer ${await signToken(as.sub)}`, {
        bearer: [],
      }).attempts(entry, fixture, kind);
    },
  },
  {
    name: 'simulator session token',
    async attempts(_entry, fixture, kind) {
      const { token } = await createSession(learner);
      const as = fixture.actor ?? learner;
      if (kind === 'signed') {
        const [unsigned] = (await fixture.unsigned?.()) ?? [];
        return unsigned
          ? [
              { req: unsigned.req, authorization: `Session ${token}`, expect: [404] },
              { req: unsigned.req, authorization: `Bearer ${token}`, expect: [404] },
            ]
          : null;
      }
      const req = await fixture.build(as);
      if (kind === 'public') {
        return [{ req, authorization: `Session ${token}`, expect: [] }];
      }
      const asBearer: Attempt = {
        what: 'as a bearer token',
        req,
        authorization: `Bearer ${token}`,
        expect: [401],
      };
      // On session routes the Session scheme is the control; only the bearer spelling is an attack.
      if (kind === 'session') return [asBearer];
      return [
        { what: 'Session scheme', req, authorization: `Session ${token}`, expect: [401] },
        asBearer,
      ];
    },
  },
  {
    name: 'forged or dead route credential',
    async attempts(_entry, fixture, kind) {
      if (kind === 'signed') {
        return ((await fixture.unsigned?.()) ?? []).map((u) => ({
          what: u.what,
          req: u.req,
          expect: [404],
        }));
      }
      if (kind === 'session') {
        const req = await fixture.build(learner);
        const closed = await createSession(learner);
        const close = await ctx.t.app.inject({
          method: 'POST',
          url: `/api/v1/product/${ctx.products.radiography}/session/${closed.uuid}/close`,
          headers: { ...(await bearer(learner.sub)), ...xsrfHeaders() },
        });
        assert.equal(close.statusCode, 200, close.body);
        return [
          {
            what: 'unknown session token',
            req,
            authorization: `Session ${randomBytes(32).toString('base64url')}`,
            expect: [401],
          },
          {
            what: "a closed session's token",
            req,
            authorization: `Session ${closed.token}`,
            expect: [401, 409],
          },
        ];
      }
      if (kind === 'bearer') {
        const req = await fixture.build(fixture.actor ?? learner);
        const good = await signToken((fixture.actor ?? learner).sub);
        const [h, p, s] = good.split('.') as [string, string, string];
        return [
          { what: 'malformed token', req, authorization: 'Bearer not.a.jwt', expect: [401] },
          {
            what: 'tampered signature',
            req,
            authorization: `Bearer ${h}.${p}.${(s[0] === 'A' ? 'B' : 'A') + s.slice(1)}`,
            expect: [401],
          },
        ];
      }
      return null;
    },
  },
  {
    name: 'learner lacking the permission',
    async attempts(entry, fixture, kind) {
      if (kind !== 'bearer') return null;
      const routeDenies =
        Array.isArray(entry.access) &&
        !entry.access.some((p) => ctx.learnerPermissions.includes(p));
      const req = routeDenies ? await fixture.build(learner) : await fixture.learnerDenied?.();
      return req
        ? [
            {
              as: learner,
              req,
              authorization: `Bearer ${await signToken(learner.sub)}`,
              expect: [403, 404],
            },
          ]
        : null;
    },
  },
  {
    name: "another organisation's object",
    async attempts(_entry, fixture, kind) {
      if (kind !== 'bearer' || !fixture.foreign) return null;
      const attempts: Attempt[] = [];
      for (const f of await fixture.foreign()) {
        attempts.push({
          what: f.what,
          as: f.as,
          req: f.req,
          authorization: `Bearer ${await signToken(f.as.sub)}`,
          expect: [403, 404],
        });
      }
      return attempts;
    },
  },
];

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

async function send(method: string, req: Req, authorization?: string | null) {
  const headers: Record<string, string> = {
    // A matching XSRF pair, so that unsafe calls reach authentication instead of stopping at XSRF.
    ...(UNSAFE.has(method) ? xsrfHeaders() : {}),
    ...req.headers,
  };
  if (authorization === null) delete headers.authorization;
  else if (authorization !== undefined) headers.authorization = authorization;
  return ctx.t.app.inject({
    method: method as 'GET',
    url: req.url,
    headers,
    ...(req.payload !== undefined ? { payload: req.payload } : {}),
  });
}

async function one<T>(sql: string, params: unknown[]): Promise<T> {
  const row = (await ctx.t.db.query<T & Record<string, unknown>>(sql, params)).rows[0];
  assert.ok(row, sql);
  return row;
}

async function insertUserFile(ownerId: string): Promise<string> {
  const id = randomUUID();
  const key = `user/${id}.csv`;
  const bytes = Buffer.from('email,first_name,last_name\nnew@example.test,New,User\n');
  await ctx.t.app.storage.put(key, bytes);
  await ctx.t.db.query(
    `insert into files (id, kind, original_name, mime_type, size, storage_key, state, owner_id)
     values ($1, 'user', 'users.csv', 'text/csv', $2, $3, 'saved', $4)`,
    [id, bytes.length, key, ownerId],
  );
  return id;
}

function codeOf(body: string): unknown {
  try {
    return (JSON.parse(body) as { code?: unknown }).code;
  } catch {
    return undefined;
  }
}

/**
 * "Closed Clinic": a learner, an educator and an administrator, and a session the learner
 * launched while it was active; then it is deactivated.
 */
async function closedOrganisation(t: TestApp): Promise<Ctx['closed']> {
  const org = await t.db.query<{ id: number }>(
    "insert into organisations (name) values ('Closed Clinic') returning id",
  );
  const organisationId = org.rows[0]!.id;
  const members: Ctx['closed']['members'] = {};
  for (const role of ['learner', 'educator', 'org admin'] as const) {
    const id = randomUUID();
    await t.db.query(
      `insert into users (id, email, first_name, last_name, organisation_id, role_id)
       values ($1, $2, 'Closed', 'Member', $3, (select id from roles where name = $4))`,
      [id, `${role.replace(' ', '')}@closed.test`, organisationId, role],
    );
    members[role] = id;
  }
  const sessionToken = newSessionToken();
  const product = await t.db.query<{ id: number }>(
    "select id from products where code = 'radiography'",
  );
  const created = await t.app.repos.sessions.create(
    {
      userId: members.learner!,
      productId: product.rows[0]!.id,
      categoryId: null,
      configuration: 'radiography.lower-limb.knee',
      mode: 'Desktop',
      ltiLaunchId: null,
      tokenHash: hashSessionToken(sessionToken),
    },
    { maxAgeSeconds: 86_400, idleSeconds: 86_400, maxOpen: 10 },
  );
  assert.ok(created.ok, 'the Closed Clinic session was created');
  await t.db.query('update organisations set is_active = false where id = $1', [organisationId]);
  return { members, sessionToken };
}

describe('auth matrix', () => {
  before(async () => {
    // Sessions pile up (each cell that needs one creates it); the open-session quota is another test's.
    const t = await buildTestApp({
      maxOpenSessionsPerUser: 1_000_000,
      brightspace: suiteBrightspace.config,
      ltiBroker: BROKER,
      metricsToken: 'auth-matrix-metrics-token-0123456789',
    });
    ctx = { t } as Ctx;
    const productId = async (code: string) =>
      (await one<{ id: number }>('select id from products where code = $1', [code])).id;
    const installer = async (code: string) =>
      (
        await one<{ file_id: string }>(
          `select d.file_id from simulation_downloads d join products p on p.id = d.product_id
            where p.code = $1 and d.is_active and d.file_id is not null order by d.id limit 1`,
          [code],
        )
      ).file_id;
    const report = (userId: string) =>
      createReport(t.db, {
        userId,
        product: 'radiography',
        evidence: [{ image: true }, { image: true }],
        storage: t.app.storage,
      });

    const otherAdmin = randomUUID();
    await t.db.query(
      `insert into users (id, email, first_name, last_name, organisation_id, role_id)
       values ($1, 'orgadmin@other.test', 'Oskar', 'Admin',
               (select id from organisations where name = 'Other College'),
               (select id from roles where name = 'org admin'))`,
      [otherAdmin],
    );
    const deletedSub = randomUUID();
    await t.db.query(
      `insert into users (id, email, first_name, last_name, organisation_id, role_id)
       values ($1, 'deleted@demo.test', 'Del', 'Eted',
               (select id from organisations where name = 'Demo Hospital'),
               (select id from roles where name = 'sys admin'))`,
      [deletedSub],
    );
    await t.db.query('delete from users where id = $1', [deletedSub]);
    const closed = await closedOrganisation(t);

    Object.assign(ctx, {
      products: {
        radiography: await productId('radiography'),
        birthing: await productId('birthing'),
      },
      reports: { learner: await report(learner.sub), other: await report(otherLearner.sub) },
      installers: {
        radiography: await installer('radiography'),
        birthing: await installer('birthing'),
      },
      userFiles: {
        demo: await insertUserFile(orgAdmin.sub),
        other: await insertUserFile(otherAdmin),
      },
      deletedSub,
      closed,
      birthingConfiguration: (
        await one<{ simulation_configuration: string }>(
          `select c.simulation_configuration from product_categories c
             join products p on p.id = c.product_id
            where p.code = 'birthing' and c.simulation_configuration is not null
            order by c.id limit 1`,
          [],
        )
      ).simulation_configuration,
      learnerPermissions: (await t.app.repos.users.findAuthUser(learner.sub))?.permissions ?? [],
    } satisfies Omit<Ctx, 't'>);
    admin = await adminContext(t);
    await t.app.ready();
  });
  after(() => ctx.t.close());

  test('every registered route has a fixture', () => {
    const missing = ctx.t.app.routeAccess
      .filter((entry) => !fixtureFor(entry))
      .map((entry) => `route ${entry.method} ${entry.url} is not covered by the auth matrix`);
    assert.deepEqual(missing, []);
    const registered = new Set(ctx.t.app.routeAccess.map((e) => `${e.method} ${e.url}`));
    const stale = Object.keys(fixtures).filter((key) => !registered.has(key));
    assert.deepEqual(stale, [], 'fixtures of routes that no longer exist');
  });

  test('every route × every case: never 2xx, never 5xx', async (tc) => {
    const failures: string[] = [];
    const rows: string[] = [];
    let cells = 0;
    let requests = 0;
    const routes = ctx.t.app.routeAccess.filter((entry) => fixtureFor(entry));
    assert.ok(routes.length >= 40, 'the registry lists the routes');

    for (const entry of routes) {
      const fixture = fixtureFor(entry)!;
      const kind = kindOf(entry, fixture);
      const route = `${entry.method} ${entry.url}`;
      const actor = fixture.actor ?? learner;

      const controlReq = await fixture.build(actor);
      const control = await send(
        entry.method,
        controlReq,
        kind === 'bearer' ? `Bearer ${await signToken(actor.sub)}` : undefined,
      );
      requests++;
      const controlOk = fixture.succeeded
        ? fixture.succeeded(control)
        : control.statusCode >= 200 && control.statusCode < 300;
      if (!controlOk) {
        failures.push(
          `${route}: control (good credential) answered ${control.statusCode} ${control.body.slice(0, 200)}`,
        );
      }
      const statuses: string[] = [`control ${control.statusCode}`];

      for (const c of cases) {
        const attempts = await c.attempts(entry, fixture, kind);
        if (!attempts) {
          statuses.push('-');
          continue;
        }
        cells++;
        const seen: number[] = [];
        for (const attempt of attempts) {
          const res = await send(entry.method, attempt.req, attempt.authorization);
          requests++;
          seen.push(res.statusCode);
          const where = `${route} × ${c.name}${attempt.what ? ` (${attempt.what}${attempt.as ? `, as ${attempt.as.email}` : ''})` : ''}`;
          const problem =
            res.statusCode >= 500
              ? '5xx'
              : kind === 'public' && fixture.ownBearer
                ? res.statusCode !== 401
                  ? `answered ${res.statusCode}, not 401: no portal credential is the route's own token`
                  : null
                : kind === 'public'
                  ? res.statusCode !== control.statusCode
                    ? `answered ${res.statusCode}, not ${control.statusCode} as without it`
                    : null
                  : res.statusCode < 300
                    ? '2xx'
                    : attempt.expect.length > 0 && !attempt.expect.includes(res.statusCode)
                      ? `expected ${attempt.expect.join('/')}`
                      : attempt.code && entry.method !== 'HEAD' && codeOf(res.body) !== attempt.code
                        ? `expected code ${attempt.code}`
                        : null;
          if (problem)
            failures.push(`${where}: ${problem} (${res.statusCode} ${res.body.slice(0, 200)})`);
        }
        statuses.push(seen.join('/'));
      }
      rows.push(`${route} [${kind}]: ${statuses.join(' | ')}`);
    }

    const size = `${routes.length} routes × ${cases.length} cases = ${routes.length * cases.length} cells`;
    tc.diagnostic(
      `auth matrix: ${size}; ${cells} applicable cells run with ${requests} requests (incl. ${routes.length} positive controls)`,
    );
    tc.diagnostic(`columns: control | ${cases.map((c) => c.name).join(' | ')}`);
    for (const row of rows) tc.diagnostic(row);
    assert.deepEqual(failures, []);
  });
});

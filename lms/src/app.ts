import Fastify, { LogController, type FastifyReply, type FastifyServerOptions } from 'fastify';
import type { JWTVerifyGetKey } from 'jose';
import {
  logRequests,
  requestIdOptions,
  serverLogOptions,
  serveOperationEndpoints,
  type Lifecycle,
} from '@portal/service-kit';
import { createToolKeys, type LmsContext } from './context';
import { AUTOSUBMIT_SCRIPT, LTI_STORAGE_SCRIPT, STYLESHEET } from './html';
import { dataFile } from './data-file';
import { BRIGHTSPACE_LTI_CLIENT, type LtiClient } from './institutions';
import { createKeys } from './keys';
import { agsRoutes, SCORE_TYPE } from './routes/ags';
import { d2lRoutes } from './routes/d2l';
import { ltiRoutes } from './routes/lti';
import { nrpsRoutes } from './routes/nrps';
import { pageRoutes } from './routes/pages';
import { testRoutes } from './routes/test-endpoints';
import { createRoster } from './roster';
import { lmsSecurityHeaders } from './security';
import { createStore } from './store';

export interface LmsAppOptions {
  /** Our own address (the LTI issuer), no trailing slash. */
  publicUrl: string;
  /** The portal's address as the browser sees it (its /api/lti/* routes). */
  portalUrl: string;
  /** Default `${portalUrl}/api/lti/jwks`. */
  toolJwksUrl?: string;
  /** Tests hand in the tool's keys directly. */
  toolKeys?: JWTVerifyGetKey;
  clientId?: string;
  deploymentId?: string;
  /** Demo Brightspace College's LTI client; default `portal-tool-brightspace`, `brightspace-deployment`. */
  brightspaceLtiClient?: LtiClient;
  brightspaceClientId?: string;
  brightspaceClientSecret?: string | null;
  testEndpoints?: boolean;
  /**
   * Origins besides the portal's the embedded launch's frame may show (CSP frame-src): those the
   * tool's sign-in passes through inside the frame, e.g. its identity provider.
   */
  frameOrigins?: string[];
  /** Keeps the key and the course (links, line items, scores) in `<dir>/lms.json` across restarts; unset: in memory. */
  dataDir?: string | null;
  logger?: FastifyServerOptions['logger'];
  /** GET /metrics answers only this bearer token; unset = 404. */
  metricsToken?: string;
  lifecycle?: Lifecycle;
}

/** A small LTI 1.3 platform: sign-in, the demo course, the gradebook, and the standards' endpoints. */
export async function buildLmsApp(options: LmsAppOptions) {
  const issuer = options.publicUrl.replace(/\/+$/, '');
  const portalUrl = options.portalUrl.replace(/\/+$/, '');
  const app = Fastify({
    // Codes, states and tokens travel in query strings here; none may reach a log file.
    logger: serverLogOptions(options.logger ?? false),
    // Forms and JSON here are small; a deep linking response JWT is a few kB.
    bodyLimit: 64 * 1024,
    ...requestIdOptions,
    // One line per answer (logRequests); /healthz at debug.
    logController: new LogController({ disableRequestLogging: true }),
  });
  logRequests(app);
  const portalOrigin = new URL(portalUrl).origin;
  const saved = options.dataDir ? dataFile(options.dataDir) : null;
  const keys = await createKeys(issuer, saved?.state.key);
  if (saved && !saved.state.key) saved.save({ key: keys.privateJwk });
  const frameOrigins = [...new Set([portalOrigin, ...(options.frameOrigins ?? []).map((o) => new URL(o).origin)])];
  const security = lmsSecurityHeaders(portalOrigin, frameOrigins);
  app.addHook('onSend', security.onSend);

  // Forms: first value of each field, no prototype keys.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    const fields: Record<string, string> = Object.create(null) as Record<string, string>;
    for (const [k, v] of new URLSearchParams(body as string)) if (!(k in fields)) fields[k] = v;
    done(null, fields);
  });
  app.addContentTypeParser(SCORE_TYPE, { parseAs: 'string' }, app.getDefaultJsonParser('error', 'error'));

  const ctx: LmsContext = {
    issuer,
    portalUrl,
    toolLaunchUrl: `${portalUrl}/api/lti/launch`,
    toolLoginUrl: `${portalUrl}/api/lti/login`,
    clientId: options.clientId ?? 'portal-tool',
    deploymentId: options.deploymentId ?? 'demo-deployment',
    brightspaceLtiClient: options.brightspaceLtiClient ?? BRIGHTSPACE_LTI_CLIENT,
    brightspaceClientId: options.brightspaceClientId ?? 'portal-brightspace',
    brightspaceClientSecret: options.brightspaceClientSecret ?? null,
    tokenUrl: `${issuer}/oauth2/token`,
    store: createStore({ saved: saved?.state.course, onChange: saved ? (course) => saved.save({ course }) : undefined }),
    keys,
    toolKeys: options.toolKeys ?? createToolKeys(options.toolJwksUrl ?? `${portalUrl}/api/lti/jwks`),
    outage: { down: false },
    roster: createRoster({ saved: saved?.state.members, onChange: saved ? (members) => saved.save({ members }) : undefined }),
    nrps: { down: false, refuseTokens: false },
    frameOrigins,
    security,
  };

  // Before any route, so its request timing covers every route.
  serveOperationEndpoints(app, {
    service: 'lms',
    metricsToken: options.metricsToken,
    ...(options.lifecycle ? { lifecycle: options.lifecycle } : {}),
  });
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/assets/lms.css', async (_request, reply) => reply.type('text/css; charset=utf-8').header('cache-control', 'public, max-age=300').send(STYLESHEET));
  const script = (body: string) => async (_request: unknown, reply: FastifyReply) => reply.type('text/javascript; charset=utf-8').header('cache-control', 'public, max-age=300').send(body);
  app.get('/assets/autosubmit.js', script(AUTOSUBMIT_SCRIPT));
  app.get('/assets/lti-storage.js', script(LTI_STORAGE_SCRIPT));

  const { sendPage, signOut } = pageRoutes(app, ctx);
  ltiRoutes(app, ctx, sendPage);
  agsRoutes(app, ctx);
  nrpsRoutes(app, ctx);
  d2lRoutes(app, ctx, sendPage, signOut);
  if (options.testEndpoints) testRoutes(app, ctx);

  app.decorate('lms', ctx);
  return app;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The stand-in's state, for tests and the programmatic starter. */
    lms: LmsContext;
  }
}

export type LmsApp = Awaited<ReturnType<typeof buildLmsApp>>;

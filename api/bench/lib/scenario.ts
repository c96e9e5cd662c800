import { performance } from 'node:perf_hooks';
import {
  SESSION_TOKEN_SCHEME,
  XSRF_COOKIE,
  XSRF_HEADER,
  type CompleteSessionBody,
  type CreatedSession,
  type CreateSessionBody,
  type EvidenceSubmission,
  type Product,
  type ProductCategory,
  type SessionStatus,
} from '@portal/contract';
import { json, UnexpectedResponse, type HttpTarget, type RequestSpec } from './http-client';
import { multipartBody } from './multipart';

/** Route labels of the printed table, in the order a learner meets them. */
export const ROUTES = {
  bare: 'GET /bare (bare Fastify baseline)',
  whoami: 'GET /api/v1/user/whoami',
  products: 'GET /api/v1/product',
  categories: 'GET /api/v1/product/{id}/category',
  create: 'POST /api/v1/product/{id}/session',
  status: 'GET /api/v1/product/{id}/session/{uuid}/status',
  join: 'POST /api/v1/simulator/session/join',
  evidence: 'POST /api/v1/simulator/session/evidence',
  complete: 'POST /api/v1/simulator/session/complete',
  close: 'POST /api/v1/product/{id}/session/{uuid}/close',
  reportList: 'GET /api/v1/report?page=1',
  report: 'GET /api/v1/report/{uuid}',
  learnerReports: 'GET /api/v1/report/learner?page=1 (educator)',
} as const;

/** The product every bench learner practises; Demo Hospital's licence grants it in Desktop mode. */
const PRODUCT_CODE = 'radiography';
const MODE = 'Desktop';
const XSRF_VALUE = 'bench-xsrf-token';
/** A browser sends the XSRF cookie with every call once the API has set it. */
export const COOKIE = { cookie: `${XSRF_COOKIE}=${XSRF_VALUE}` };
/** Unsafe calls also echo it in a header (double submit). */
const XSRF = { ...COOKIE, [XSRF_HEADER.toLowerCase()]: XSRF_VALUE };
/** A session the simulator never finished is given up on after this, so a learner never stalls. */
const SESSION_GIVE_UP_MS = 30_000;

export interface ScenarioContext {
  /** The learners' browsers. */
  api: HttpTarget;
  /**
   * The simulators: another program on the learner's machine, with connections of its own. On
   * the browsers' connections a slow image upload held a socket that the next whoami waited for
   * in the generator, a queue no real browser has (api/README, "Where the time goes").
   */
  simulator: HttpTarget;
  bare: HttpTarget;
  /** No request is scheduled at or after this instant (performance.now() time). */
  stopAt: number;
  sessionMs: number;
  thinkMs: number;
  evidencePerSession: number;
  /** The bare route is called with every `bareEvery`-th status poll (`--bare-every`). */
  bareEvery: number;
  /** Status polls so far, across learners: picks the polls the bare route goes with. */
  statusPolls: { count: number };
  image: Buffer;
  /** False when the API has no report routes yet; the learner then skips reading reports. */
  reportsAvailable: boolean;
  /** Failures that ended a learner's cycle early (also counted per route). */
  abandoned: { count: number };
}

const sleepUntil = (at: number) =>
  new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, at - performance.now())));

/**
 * Runs `fn` at `start`, `start + period`, … until `stopAt` or until `active()` turns false. Each
 * call is fired on schedule whether or not the previous one has answered (open loop), as the
 * portal's timers do.
 */
function every(
  start: number,
  period: number,
  stopAt: number,
  active: () => boolean,
  fn: (scheduledAt: number) => void,
) {
  let k = 0;
  const tick = () => {
    const due = start + k * period;
    if (due >= stopAt || !active()) return;
    fn(due);
    k++;
    setTimeout(tick, Math.max(0, start + k * period - performance.now()));
  };
  setTimeout(tick, Math.max(0, start - performance.now()));
}

function leaves(categories: readonly ProductCategory[]): ProductCategory[] {
  return categories.flatMap((c) =>
    c.simulationConfiguration !== null && c.children.length === 0 ? [c] : leaves(c.children),
  );
}

/** Errors are already counted by the recorder; a failed step only ends the learner's cycle. */
function swallow(error: unknown) {
  if (!(error instanceof UnexpectedResponse)) throw error;
}

/**
 * One learner of the portal's loop: whoami every second; pick a leaf (the catalogue is fetched
 * once, as SWR caches it for minutes); create a session; the headless simulator joins, submits
 * images and completes while the learner polls status every second; on `complete` the learner
 * closes the session, reads the report list and the report, pauses, and starts over.
 */
export class Learner {
  private leaf: { productId: number; id: number; configuration: string } | null = null;

  constructor(
    private readonly ctx: ScenarioContext,
    private readonly bearer: string,
    private readonly random: () => number,
  ) {}

  private get(route: string, scheduledAt: number, path: string) {
    return this.ctx.api.call(route, scheduledAt, {
      method: 'GET',
      path,
      headers: { authorization: this.bearer, ...COOKIE },
      expect: [200],
      client: this.bearer,
    });
  }

  private post(route: string, scheduledAt: number, path: string, expect: number, body?: unknown) {
    const spec: RequestSpec = {
      method: 'POST',
      path,
      headers: { authorization: this.bearer, ...XSRF },
      expect: [expect],
      client: this.bearer,
    };
    if (body !== undefined) {
      spec.body = JSON.stringify(body);
      spec.headers = { ...spec.headers, 'content-type': 'application/json' };
    }
    return this.ctx.api.call(route, scheduledAt, spec);
  }

  whoami(at: number) {
    return this.get(ROUTES.whoami, at, '/api/v1/user/whoami');
  }

  async status(session: OpenSession, at: number): Promise<SessionStatus> {
    return json<SessionStatus>(await this.get(ROUTES.status, at, `${session.path}/status`));
  }

  close(session: OpenSession) {
    return this.post(ROUTES.close, performance.now(), `${session.path}/close`, 200);
  }

  /** What the portal shows after a session: the report list, then the report. */
  async readReports(session: OpenSession) {
    if (!this.ctx.reportsAvailable) return;
    await this.get(ROUTES.reportList, performance.now(), '/api/v1/report?page=1');
    await this.get(ROUTES.report, performance.now(), `/api/v1/report/${session.uuid}`);
  }

  private async chooseLeaf(at: number) {
    if (this.leaf) return this.leaf;
    const products = json<Product[]>(await this.get(ROUTES.products, at, '/api/v1/product'));
    const product = products.find((p) => p.code === PRODUCT_CODE);
    if (!product) throw new Error(`The bench learner does not see the ${PRODUCT_CODE} product`);
    const tree = json<ProductCategory[]>(
      await this.get(
        ROUTES.categories,
        performance.now(),
        `/api/v1/product/${product.id}/category`,
      ),
    );
    const all = leaves(tree);
    const leaf = all[Math.floor(this.random() * all.length)];
    if (!leaf?.simulationConfiguration) throw new Error(`${PRODUCT_CODE} has no leaf to launch`);
    this.leaf = { productId: product.id, id: leaf.id, configuration: leaf.simulationConfiguration };
    return this.leaf;
  }

  async createSession(at: number): Promise<OpenSession> {
    const leaf = await this.chooseLeaf(at);
    const body: CreateSessionBody = {
      configuration: leaf.configuration,
      mode: MODE,
      categoryId: leaf.id,
    };
    const created = json<CreatedSession>(
      await this.post(
        ROUTES.create,
        performance.now(),
        `/api/v1/product/${leaf.productId}/session`,
        201,
        body,
      ),
    );
    return {
      ...created,
      path: `/api/v1/product/${leaf.productId}/session/${created.uuid}`,
      openedAt: performance.now(),
    };
  }

  /**
   * Starts the learner's timers: whoami from `signedInAt`, the first session at `firstSessionAt`.
   * Nothing is scheduled at or after `ctx.stopAt`.
   */
  start(signedInAt: number, firstSessionAt: number) {
    every(
      signedInAt,
      1000,
      this.ctx.stopAt,
      () => true,
      (due) => {
        this.whoami(due).catch(swallow);
      },
    );
    void this.loop(firstSessionAt);
  }

  private async loop(at: number) {
    let next = at;
    while (next < this.ctx.stopAt) {
      await sleepUntil(next);
      try {
        await this.cycle(next);
      } catch (error) {
        swallow(error);
        this.ctx.abandoned.count++;
      }
      next = performance.now() + this.ctx.thinkMs;
    }
  }

  private async cycle(at: number) {
    const session = await this.createSession(at);
    let settled = false;
    const ended = new Promise<'complete' | 'failed' | 'stopped'>((resolve) => {
      const finish = (how: 'complete' | 'failed' | 'stopped') => {
        if (settled) return;
        settled = true;
        resolve(how);
      };
      every(
        session.openedAt + 1000,
        1000,
        this.ctx.stopAt,
        () => !settled,
        (due) => {
          // The bare route runs on the status schedule (same bursts), with one poll in `bareEvery`.
          if (this.ctx.statusPolls.count++ % this.ctx.bareEvery === 0) {
            this.ctx.bare
              .call(ROUTES.bare, due, { method: 'GET', path: '/bare', expect: [200] })
              .catch(swallow);
          }
          this.status(session, due)
            .then((answer) => {
              if (answer.status === 'complete') finish('complete');
            })
            .catch(swallow);
        },
      );
      new HeadlessSimulator(this.ctx, session.token, this.bearer)
        .runPaced(session.openedAt)
        .catch((error: unknown) => {
          swallow(error);
          finish('failed');
        });
      setTimeout(() => finish('failed'), this.ctx.sessionMs + SESSION_GIVE_UP_MS).unref();
      // The run ends while sessions are open; their learners have nothing more to do.
      setTimeout(() => finish('stopped'), Math.max(0, this.ctx.stopAt - performance.now())).unref();
    });
    const how = await ended;
    if (how === 'stopped' || performance.now() >= this.ctx.stopAt) return;

    await this.close(session);
    if (how !== 'complete') {
      throw new UnexpectedResponse(ROUTES.complete, 0, 'session not completed');
    }
    await this.readReports(session);
  }
}

export interface OpenSession extends CreatedSession {
  /** `/api/v1/product/{id}/session/{uuid}`. */
  path: string;
  openedAt: number;
}

/**
 * The simulator side of a session, calling the API directly with the session token like
 * `runHeadlessSession` of @portal/simulator does, but with one pre-made image and paced over the
 * session: drawing X-rays would cost the load generator the CPU the API under test needs on a
 * two-core machine, and the simulator's runner sends its calls back to back.
 */
export class HeadlessSimulator {
  private readonly auth: string;

  constructor(
    private readonly ctx: ScenarioContext,
    token: string,
    /** The learner's machine, whose simulator keeps its connection from session to session. */
    private readonly client?: string,
  ) {
    this.auth = `${SESSION_TOKEN_SCHEME} ${token}`;
  }

  private post(
    route: string,
    scheduledAt: number,
    path: string,
    expect: number,
    body: Buffer | string,
    contentType: string,
  ) {
    return this.ctx.simulator.call(route, scheduledAt, {
      method: 'POST',
      path,
      headers: { authorization: this.auth, 'content-type': contentType },
      body,
      expect: [expect],
      ...(this.client === undefined ? {} : { client: this.client }),
    });
  }

  join(at: number) {
    return this.post(
      ROUTES.join,
      at,
      '/api/v1/simulator/session/join',
      200,
      '{}',
      'application/json',
    );
  }

  submit(index: number, at: number) {
    const submission: EvidenceSubmission = {
      practiceActivity: `Bench projection ${index + 1}`,
      evidenceData: {
        meta: { type: 'xray_image' },
        settings: { projection: index % 2 === 0 ? 'AP' : 'lateral', marker: 'L' },
        console: { exposureIndex: 320 + index },
        tube: { kV: 60, mAs: 4, sidCm: 110 },
        dose: { dapMGyCm2: 0.35 },
      },
    };
    const form = multipartBody([
      { name: 'data', value: JSON.stringify(submission) },
      {
        name: 'image',
        filename: `image-${index + 1}.png`,
        contentType: 'image/png',
        data: this.ctx.image,
      },
    ]);
    return this.post(
      ROUTES.evidence,
      at,
      '/api/v1/simulator/session/evidence',
      201,
      form.body,
      form.contentType,
    );
  }

  complete(at: number) {
    const body: CompleteSessionBody = {
      reportDetails: {
        summary: `${this.ctx.evidencePerSession} images in the load benchmark`,
        score: 80,
        durationSeconds: Math.round(this.ctx.sessionMs / 1000),
      },
    };
    return this.post(
      ROUTES.complete,
      at,
      '/api/v1/simulator/session/complete',
      200,
      JSON.stringify(body),
      'application/json',
    );
  }

  /** Joins a second after launch, spreads the images over the session, completes at its end. */
  async runPaced(openedAt: number) {
    const { sessionMs, evidencePerSession } = this.ctx;
    const joinAt = openedAt + Math.min(1000, sessionMs / 4);
    const step = (openedAt + sessionMs - joinAt) / (evidencePerSession + 1);
    await sleepUntil(joinAt);
    await this.join(joinAt);
    for (let i = 0; i < evidencePerSession; i++) {
      const due = joinAt + (i + 1) * step;
      await sleepUntil(due);
      await this.submit(i, due);
    }
    const completeAt = openedAt + sessionMs;
    await sleepUntil(completeAt);
    await this.complete(completeAt);
  }
}

function learnerReports(ctx: ScenarioContext, bearer: string, at: number) {
  return ctx.api.call(ROUTES.learnerReports, at, {
    method: 'GET',
    path: '/api/v1/report/learner?page=1',
    headers: { authorization: bearer, ...COOKIE },
    expect: [200],
  });
}

/** An educator reading the first page of learner reports at a fixed rate. */
export function startEducator(ctx: ScenarioContext, bearer: string, rate: number, at: number) {
  if (rate <= 0 || !ctx.reportsAvailable) return;
  every(
    at,
    1000 / rate,
    ctx.stopAt,
    () => true,
    (due) => {
      learnerReports(ctx, bearer, due).catch(swallow);
    },
  );
}

/**
 * Every route of the loop, one request at a time (nothing else in flight): the service time of
 * each route without queueing, the floor under the loaded figures. Also warms up the JIT. The
 * rounds go to the learners in turn, so none creates sessions faster than its budget allows when
 * the API counts them (`--rate-limits`).
 */
export async function calibrate(
  ctx: ScenarioContext,
  learners: readonly Learner[],
  educatorBearer: string,
  rounds: number,
) {
  const now = () => performance.now();
  for (let round = 0; round < rounds; round++) {
    const learner = learners[round % learners.length]!;
    const session = await learner.createSession(now());
    const simulator = new HeadlessSimulator(ctx, session.token);
    await learner.status(session, now());
    await simulator.join(now());
    for (let i = 0; i < ctx.evidencePerSession; i++) await simulator.submit(i, now());
    await simulator.complete(now());
    await learner.status(session, now());
    await learner.close(session);
    await learner.readReports(session);
    if (ctx.reportsAvailable) await learnerReports(ctx, educatorBearer, now());
    for (let i = 0; i < 5; i++) {
      await learner.whoami(now());
      await ctx.bare.call(ROUTES.bare, now(), { method: 'GET', path: '/bare', expect: [200] });
    }
  }
}

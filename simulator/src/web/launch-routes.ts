import type { FastifyInstance, FastifyReply } from 'fastify';
import {
  LESSON_PARTS_PER_LESSON,
  TubeSettings,
  type FieldErrors,
  type SimulatorSession,
} from '@portal/contract';
import { captureImage, captureLessonPart, defaultTube, exposureScore, planFor, reportSummary, type SessionPlan } from '@portal/xray';
import { createSessionClient, SessionApiError, type SessionClient } from '../session-client';
import type { CaptureStore } from './capture-store';
import { completePage, messagePage, sessionPage, TUBE_FIELDS } from './launch-page';
import { STYLESHEET } from './styles';

export interface LaunchRoutesOptions {
  apiUrl: string;
  store: CaptureStore;
}

type TubeKey = keyof TubeSettings;
type Form = Partial<Record<string, string>>;

const LIMITS = Object.fromEntries(
  TUBE_FIELDS.map(({ name }) => {
    const schema = TubeSettings.properties[name];
    return [name, { min: schema.minimum ?? 0, max: schema.maximum ?? Number.MAX_SAFE_INTEGER }];
  }),
) as Record<TubeKey, { min: number; max: number }>;

/** Tube settings from the form, or the learner-facing message of each refused field. */
export function parseTube(form: Form): { tube: TubeSettings } | { errors: FieldErrors } {
  const errors: FieldErrors = {};
  const tube: Partial<TubeSettings> = {};
  for (const { name, label } of TUBE_FIELDS) {
    const raw = (form[name] ?? '').trim().replace(',', '.');
    const value = Number(raw);
    const { min, max } = LIMITS[name];
    if (raw === '' || !Number.isFinite(value)) errors[name] = [`Enter the ${label.replace(/ \(.*\)$/, '').toLowerCase()} as a number.`];
    else if (value < min || value > max) errors[name] = [`Enter a value from ${min} to ${max}.`];
    else tube[name] = value;
  }
  return Object.keys(errors).length > 0 ? { errors } : { tube: tube as TubeSettings };
}

function tubeText(tube: TubeSettings): Record<TubeKey, string> {
  return { kV: String(tube.kV), mAs: String(tube.mAs), sidCm: String(tube.sidCm) };
}

/**
 * The browser simulator. The page talks only to this server; this server calls the API with the
 * session token, so the token never goes to another origin and the API needs no CORS.
 */
export async function launchRoutes(app: FastifyInstance, options: LaunchRoutesOptions): Promise<void> {
  const { apiUrl, store } = options;
  const clientFor = (token: string): SessionClient => createSessionClient({ apiUrl, token });

  // The launch link carries the token: keep it out of caches. Out of referrers, and the rest of
  // the browser policy, app-wide (app.ts).
  app.addHook('onSend', async (_request, reply) => {
    if (!reply.hasHeader('cache-control')) reply.header('Cache-Control', 'no-store');
  });

  const sendPage = (reply: FastifyReply, status: number, body: string) =>
    reply.code(status).type('text/html; charset=utf-8').send(body);

  const missingToken = (reply: FastifyReply) =>
    sendPage(
      reply,
      400,
      messagePage(
        'Simulator link incomplete',
        'This page needs the session link from the portal. Choose a simulation in the portal and press Desktop or VR to open it.',
      ),
    );

  /** The learner-facing page for an API failure, with the HTTP status mirrored where it means something. */
  const failure = (reply: FastifyReply, error: unknown) => {
    if (!(error instanceof SessionApiError)) throw error;
    reply.log.warn({ status: error.status, detail: error.detail }, 'simulator API call failed');
    if (error.status === 401 || error.status === 403 || error.status === 404) {
      return sendPage(reply, 401, messagePage('Session link not valid', 'This session link is not valid or has expired. Start the simulation again from the portal.', error.detail));
    }
    if (error.status === 409) {
      return sendPage(reply, 409, messagePage('Session closed', 'This session is no longer open. Start a new simulation from the portal.', error.detail));
    }
    if (error.status === 400) {
      return sendPage(reply, 400, messagePage('Simulator problem', 'The portal refused what the simulator sent.', error.message));
    }
    return sendPage(reply, 502, messagePage('Portal unavailable', 'The simulator cannot reach the portal right now. Try again in a moment.', error.status ? `The portal answered ${error.status}.` : null));
  };

  const renderSession = (
    reply: FastifyReply,
    status: number,
    { session, plan, token, tube, notice = null, errors = {} }: { session: SimulatorSession; plan: SessionPlan; token: string; tube?: Record<TubeKey, string>; notice?: string | null; errors?: FieldErrors },
  ) => {
    const desk = store.desk(session.uuid);
    return sendPage(
      reply,
      status,
      sessionPage({
        session,
        plan,
        token,
        tube: tube ?? tubeText(desk.tube ?? defaultTube(plan)),
        limits: LIMITS,
        captures: desk.captures,
        notice,
        errors,
      }),
    );
  };

  app.get('/assets/simulator.css', async (_request, reply) =>
    reply.type('text/css; charset=utf-8').header('Cache-Control', 'public, max-age=3600').send(STYLESHEET),
  );

  app.get<{ Querystring: { token?: string; done?: string } }>('/launch', async (request, reply) => {
    const token = request.query.token?.trim();
    if (!token) return missingToken(reply);
    let session: SimulatorSession;
    try {
      session = await clientFor(token).join();
    } catch (error) {
      return failure(reply, error);
    }
    const plan = planFor(session);
    const done = Number(request.query.done);
    const noun = plan.kind === 'lesson' ? 'Lesson part' : 'Image';
    const notice = Number.isInteger(done) && done > 0 ? `${noun} ${done} recorded.` : null;
    return renderSession(reply, 200, { session, plan, token, notice });
  });

  // After each capture the browser is sent back to the page (POST/redirect/GET), so reloading
  // the page re-joins instead of submitting the same evidence twice.
  const backToPage = (reply: FastifyReply, token: string, done: number) =>
    reply.redirect(`/launch?token=${encodeURIComponent(token)}&done=${done}`, 303);

  app.post<{ Body: Form }>('/launch/capture', async (request, reply) => {
    const form = request.body ?? {};
    const token = form.token?.trim();
    if (!token) return missingToken(reply);
    const client = clientFor(token);
    try {
      const session = await client.join();
      const plan = planFor(session);
      if (plan.kind !== 'xray') return backToPage(reply, token, 0);
      const parsed = parseTube(form);
      if ('errors' in parsed) {
        const typed = Object.fromEntries(TUBE_FIELDS.map(({ name }) => [name, form[name] ?? ''])) as Record<TubeKey, string>;
        return renderSession(reply, 400, { session, plan, token, tube: typed, errors: parsed.errors });
      }
      const capture = captureImage(session, plan.area, parsed.tube, session.evidenceCount);
      const created = await client.submitEvidence(capture.submission, capture.image);
      const desk = store.desk(session.uuid);
      desk.tube = parsed.tube;
      store.add(session.uuid, created.id, capture.summary, capture.image);
      return backToPage(reply, token, session.evidenceCount + 1);
    } catch (error) {
      return failure(reply, error);
    }
  });

  app.post<{ Body: Form }>('/launch/lesson-part', async (request, reply) => {
    const token = request.body?.token?.trim();
    if (!token) return missingToken(reply);
    const client = clientFor(token);
    try {
      const session = await client.join();
      const plan = planFor(session);
      if (plan.kind !== 'lesson' || session.evidenceCount >= LESSON_PARTS_PER_LESSON) return backToPage(reply, token, 0);
      const capture = captureLessonPart(session, plan.lesson, session.evidenceCount);
      const created = await client.submitEvidence(capture.submission, capture.image);
      store.add(session.uuid, created.id, capture.summary, capture.image);
      return backToPage(reply, token, session.evidenceCount + 1);
    } catch (error) {
      return failure(reply, error);
    }
  });

  app.post<{ Body: Form }>('/launch/finish', async (request, reply) => {
    const token = request.body?.token?.trim();
    if (!token) return missingToken(reply);
    const client = clientFor(token);
    try {
      const session = await client.join();
      const plan = planFor(session);
      const desk = store.desk(session.uuid);
      const summary = reportSummary(plan, session.evidenceCount);
      // A score only when this simulator saw every image of the session (not after a restart).
      const score = desk.captures.length === session.evidenceCount ? exposureScore(desk.captures.map((c) => c.summary)) : null;
      await client.complete({
        reportDetails: {
          summary,
          ...(score === null ? {} : { score }),
          durationSeconds: Math.min(86_400, Math.round((Date.now() - desk.joinedAt) / 1000)),
        },
      });
      store.forget(session.uuid);
      return sendPage(reply, 200, completePage(session, summary));
    } catch (error) {
      return failure(reply, error);
    }
  });

  app.get<{ Params: { id: string } }>('/launch/images/:id', async (request, reply) => {
    const id = request.params.id.replace(/\.png$/, '');
    const image = store.image(id);
    if (!image) return reply.code(404).type('text/plain; charset=utf-8').send('Image not found.');
    return reply.type('image/png').header('Cache-Control', 'private, max-age=3600').send(image);
  });
}

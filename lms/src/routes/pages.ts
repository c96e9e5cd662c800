import type { FastifyInstance, FastifyReply } from 'fastify';
import { keepsCrossSiteCookies } from '@portal/service-kit';
import { cookieOf, safeReturnPath, SESSION_COOKIE, signedInUser, toSignIn, type LmsContext } from '../context';
import { html, page, type SafeHtml } from '../html';
import { clientOf } from '../institutions';
import { displayName, PASSWORD, type CourseLink, type LmsUser } from '../store';

type Form = Record<string, string | undefined>;

const sendPage = (reply: FastifyReply, body: string, status = 200) => reply.code(status).type('text/html; charset=utf-8').send(body);

/**
 * The session cookie's SameSite. The embedded launch's frame reaches /lti/auth through the tool's
 * pages (another site), and a Lax cookie does not travel on a frame navigation another site
 * started: so None, as real platforms send theirs, where the browser takes the Secure it needs —
 * https, or a loopback address (a secure context). Elsewhere on plain http: Lax (the launch in a
 * new window still works, its redirects to /lti/auth and /d2l/oauth2/auth being top-level GETs).
 */
export function sessionSameSite(issuer: string): string {
  return keepsCrossSiteCookies(issuer) ? 'SameSite=None; Secure' : 'SameSite=Lax';
}

function signInPage(ctx: LmsContext, returnPath: string, problem?: string): string {
  const users = ctx.store.users.map(
    (u) => html`<li><form method="post" action="/login"><input type="hidden" name="user" value="${u.id}"><input type="hidden" name="return" value="${returnPath}"><button type="submit" class="secondary">Sign in as ${displayName(u)}</button> <span class="muted">${u.email}, ${u.instructor ? 'instructor' : 'learner'}${u.institution ? `, ${u.institution}` : ''}</span></form></li>`,
  );
  return page(
    'Sign in',
    html`<h1>Sign in to the learning platform</h1>
<p class="notice">A stand-in for a learning platform (Moodle, Brightspace …) that launches the Simulation Portal over LTI 1.3. Every user's password is ${PASSWORD}.</p>
${problem ? html`<p class="problem" role="alert">${problem}</p>` : ''}
<form method="post" action="/login" aria-label="Sign in with e-mail">
<input type="hidden" name="return" value="${returnPath}">
<div class="field"><label for="email">E-mail</label><input id="email" name="email" type="email" autocomplete="username" required></div>
<div class="field"><label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required></div>
<button type="submit">Sign in</button>
</form>
<h2>Or pick a user</h2>
<ul class="links">${users}</ul>`,
  );
}

function coursePage(ctx: LmsContext, user: LmsUser, added: string | undefined): string {
  const addedLink = added ? ctx.store.link(added) : null;
  const links = ctx.store.links().map(
    (link) =>
      html`<li><span>${link.title}</span><span class="launch"><form method="post" action="/course/links/${link.id}/launch"><button type="submit">Launch ${link.title}</button></form><a href="/course/links/${link.id}/embedded">Launch ${link.title} (embedded)</a></span></li>`,
  );
  return page(
    'Demo course',
    html`<h1>Demo course</h1>
${addedLink ? html`<p class="notice" role="status">Added “${addedLink.title}” to the course.</p>` : ''}
<h2>Simulations</h2>
<ul class="links" aria-label="Course links">${links}</ul>
${
  user.instructor
    ? html`<form method="post" action="/course/deep-link" class="actions"><button type="submit" class="secondary">Add a simulation</button></form>`
    : ''
}
<p><a href="/gradebook">Gradebook</a></p>`,
    { user: { name: displayName(user) } },
  );
}

function gradebookPage(ctx: LmsContext, user: LmsUser): string {
  const learners = user.instructor ? ctx.store.users.filter((u) => !u.instructor) : [user];
  const sections: SafeHtml[] = ctx.store.links().map((link) => {
    const item = link.lineItemId ? ctx.store.lineItem(link.lineItemId) : null;
    if (!item) return html`<h2>${link.title}</h2><p class="muted">Not graded.</p>`;
    const scores = ctx.store.scoresOf(item.id);
    const rows = learners.map((learner) => {
      const score = scores.find((s) => s.userId === learner.id);
      return html`<tr><th scope="row">${displayName(learner)}</th><td>${
        score?.scoreGiven !== undefined ? `${score.scoreGiven} / ${score.scoreMaximum}` : '–'
      }</td><td>${score ? `${score.activityProgress}, ${score.gradingProgress}` : 'No score'}</td><td class="comment">${score?.comment ?? ''}</td><td>${score ? score.timestamp : ''}</td></tr>`;
    });
    return html`<h2>${link.title}</h2>
<table aria-label="${link.title}"><caption class="muted">Out of ${item.scoreMaximum}</caption><thead><tr><th scope="col">Learner</th><th scope="col">Score</th><th scope="col">Progress</th><th scope="col">Comment</th><th scope="col">When</th></tr></thead><tbody>${rows}</tbody></table>`;
  });
  return page('Gradebook', html`<h1>Gradebook</h1>${sections}`, { user: { name: displayName(user) } });
}

function embeddedPage(ctx: LmsContext, user: LmsUser, link: CourseLink, loginUrl: string): string {
  return page(
    link.title,
    html`<p class="breadcrumb"><a href="/course">Demo course</a> › ${link.title}</p>
<h1>${link.title}</h1>
<iframe class="tool-frame" name="lti-tool" title="${link.title} (Simulation Portal)" src="${loginUrl}" allow="fullscreen; clipboard-write; autoplay" allowfullscreen data-lti-storage-origin="${new URL(ctx.portalUrl).origin}"></iframe>
<p class="muted">The simulation runs inside the course page. <a href="/course">Back to the course</a></p>`,
    { user: { name: displayName(user) }, script: '/assets/lti-storage.js', wide: true },
  );
}

/** The stand-in's own pages: sign-in, the demo course with its launch buttons, the gradebook. */
export function pageRoutes(app: FastifyInstance, ctx: LmsContext) {
  const { store } = ctx;
  const noSuchLink = (reply: FastifyReply) => sendPage(reply, page('Not found', html`<h1>No such link</h1><p><a href="/course">Back to the course</a></p>`), 404);

  app.get('/', async (request, reply) => reply.redirect(signedInUser(ctx, request) ? '/course' : '/login', 303));

  app.get<{ Querystring: { return?: string } }>('/login', async (request, reply) =>
    sendPage(reply, signInPage(ctx, safeReturnPath(request.query.return))),
  );

  app.post<{ Body: Form }>('/login', async (request, reply) => {
    const form = request.body ?? {};
    const returnPath = safeReturnPath(form.return);
    let user: LmsUser | null = null;
    if (form.user !== undefined) user = store.user(form.user);
    else if (form.email && form.password === PASSWORD) user = store.userByEmail(form.email);
    if (!user) return sendPage(reply, signInPage(ctx, returnPath, 'Unknown e-mail or wrong password.'), 401);
    const old = cookieOf(request, SESSION_COOKIE);
    if (old) store.sessions.delete(old);
    const session = store.sessions.put(user.id);
    reply.header('set-cookie', `${SESSION_COOKIE}=${session}; Path=/; HttpOnly; ${sessionSameSite(ctx.issuer)}`);
    return reply.redirect(returnPath, 303);
  });

  const signOut = (request: Parameters<typeof cookieOf>[0], reply: FastifyReply) => {
    const session = cookieOf(request, SESSION_COOKIE);
    if (session) store.sessions.delete(session);
    reply.header('set-cookie', `${SESSION_COOKIE}=; Path=/; HttpOnly; ${sessionSameSite(ctx.issuer)}; Max-Age=0`);
  };
  app.post('/logout', async (request, reply) => {
    signOut(request, reply);
    return reply.redirect('/login', 303);
  });

  app.get<{ Querystring: { added?: string } }>('/course', async (request, reply) => {
    const user = signedInUser(ctx, request);
    if (!user) return toSignIn(request, reply);
    return sendPage(reply, coursePage(ctx, user, request.query.added));
  });

  app.get('/gradebook', async (request, reply) => {
    const user = signedInUser(ctx, request);
    if (!user) return toSignIn(request, reply);
    return sendPage(reply, gradebookPage(ctx, user));
  });

  /**
   * Third-party initiated login (LTI Core §4.1): the browser goes to the tool, which comes back to
   * /lti/auth. `storageTarget`: where the tool finds our postMessage storage (LTI Client Side
   * postMessages, `lti_storage_target`); only a launch whose window has that storage names one.
   */
  const loginInitiationUrl = (user: LmsUser, hint: string, storageTarget?: string): string => {
    const target = new URL(ctx.toolLoginUrl);
    const client = clientOf(ctx, user);
    const params: Record<string, string> = {
      iss: ctx.issuer,
      login_hint: user.id,
      target_link_uri: ctx.toolLaunchUrl,
      lti_message_hint: hint,
      client_id: client.clientId,
      lti_deployment_id: client.deploymentId,
      ...(storageTarget ? { lti_storage_target: storageTarget } : {}),
    };
    for (const [k, v] of Object.entries(params)) target.searchParams.set(k, v);
    return target.toString();
  };
  const initiateLogin = (reply: FastifyReply, user: LmsUser, hint: string) => reply.redirect(loginInitiationUrl(user, hint), 303);

  // A launch in this window: the tool replaces our page, so there is no storage to name.
  app.post<{ Params: { id: string } }>('/course/links/:id/launch', async (request, reply) => {
    const user = signedInUser(ctx, request);
    if (!user) return toSignIn(request, reply);
    const link = store.link(request.params.id);
    if (!link) return noSuchLink(reply);
    return initiateLogin(reply, user, store.intents.put({ kind: 'link', userId: user.id, linkId: link.id, documentTarget: 'window' }));
  });

  /**
   * The embedded launch, as Moodle's "Embed" and Canvas show tools: our page with the tool in a
   * frame whose login initiation names this page as its postMessage storage (`_parent`).
   */
  app.get<{ Params: { id: string } }>('/course/links/:id/embedded', async (request, reply) => {
    const user = signedInUser(ctx, request);
    if (!user) return toSignIn(request, reply);
    const link = store.link(request.params.id);
    if (!link) return noSuchLink(reply);
    const hint = store.intents.put({ kind: 'link', userId: user.id, linkId: link.id, documentTarget: 'iframe' });
    ctx.security.embedding(reply);
    // The page holds a single-use launch hint: never from a cache, never a second time.
    reply.header('cache-control', 'no-store');
    return sendPage(reply, embeddedPage(ctx, user, link, loginInitiationUrl(user, hint, '_parent')));
  });

  app.post('/course/deep-link', async (request, reply) => {
    const user = signedInUser(ctx, request);
    if (!user) return toSignIn(request, reply);
    if (!user.instructor) return sendPage(reply, page('Not allowed', html`<h1>Only instructors add links</h1><p><a href="/course">Back to the course</a></p>`), 403);
    return initiateLogin(reply, user, store.intents.put({ kind: 'deep-link', userId: user.id, data: store.newToken() }));
  });

  return { sendPage, signOut };
}

import type { IncomingMessage, ServerResponse } from 'node:http';

import type { Logger } from 'pino';
import type Provider from 'oidc-provider';
import { errors } from 'oidc-provider';

import { addressKey } from './attempt-limiter';
import { isRefusal, type SignInGuard } from './brute-force';
import { DEVICE_PROMPT, type DeviceConfirmResult, type DevicePromptDetails } from './device-flow';
import { HttpError, readForm, sendHtml } from './http';
import { DEFAULT_LOCALE, type Locale, localeFromCookieHeader, messagesFor } from './locale';
import { normalizeEmail, type UserStore } from './users';
import { deviceConfirmPage } from './views/device-pages';
import { createNonce, securityHeaders } from './views/html';
import { messagePage } from './views/message-page';
import { signInPage } from './views/sign-in-page';

type InteractionDetails = Awaited<ReturnType<Provider['interactionDetails']>>;

export interface InteractionHandlerOptions {
  provider: Provider;
  /** The realm path the provider is mounted under, e.g. `/realms/main`. */
  mountPath: string;
  frontendOrigins: string[];
  logger: Logger;
  users: UserStore;
  /** The provider's brute-force detection (per account, per client address). */
  guard: SignInGuard;
}

const INTERACTION_ROUTE = /^\/interaction\/([A-Za-z0-9_-]+)(?:\/(login|device))?$/;

/** What each form post of an interaction needs the interaction to be asking for. */
const PROMPT_FOR_ACTION = { login: 'login', device: DEVICE_PROMPT } as const;

/**
 * Our sign-in and device confirmation pages. The provider sends the browser to
 * `{realm}/interaction/{uid}` whenever it needs the user; the forms post to
 * `{realm}/interaction/{uid}/login` or `/device` (below the interaction cookie's path, so the
 * cookie comes along). The uid in the path doubles as the anti-forgery token: it is random, only
 * this browser knows it, and it must match the interaction named by the SameSite=Lax cookie.
 */
export function createInteractionHandler({
  provider,
  mountPath,
  frontendOrigins,
  logger,
  users,
  guard,
}: InteractionHandlerOptions) {

  const page = (
    res: ServerResponse,
    status: number,
    render: (nonce: string) => string,
    headers: Record<string, string> = {},
  ): void => {
    const nonce = createNonce();
    sendHtml(res, status, render(nonce), { ...securityHeaders({ nonce, frontendOrigins }), ...headers });
  };

  const expired = (res: ServerResponse): void =>
    page(res, 400, (nonce) =>
      messagePage({
        title: 'Sign-in expired',
        message: 'This sign-in page has expired. Return to the application and sign in again.',
        nonce,
      }),
    );

  const localeOf = (req: IncomingMessage): Locale => localeFromCookieHeader(req.headers.cookie) ?? DEFAULT_LOCALE;

  const renderSignIn = (uid: string, nonce: string, locale: Locale, email?: string, error?: string) =>
    signInPage({ action: `${mountPath}/interaction/${uid}/login`, nonce, locale, email, error });

  function renderDeviceConfirm(res: ServerResponse, uid: string, details: InteractionDetails, locale: Locale): void {
    const account = details.session?.accountId ? users.get(details.session.accountId) : undefined;
    if (!account) throw new HttpError(400, 'Interaction has no signed-in user.');
    const { userCode } = details.prompt.details as DevicePromptDetails;
    page(res, 200, (nonce) =>
      deviceConfirmPage({
        action: `${mountPath}/interaction/${uid}/device`,
        nonce,
        locale,
        name: [account.firstName, account.lastName].filter(Boolean).join(' ') || account.email,
        email: account.email,
        userCode,
      }),
    );
  }

  async function finishDeviceConfirm(req: IncomingMessage, res: ServerResponse, uid: string, details: InteractionDetails) {
    const decision = (await readForm(req)).get('decision');
    if (decision === 'allow') {
      const approved: DeviceConfirmResult = { approved: true };
      logger.info({ interaction: uid, sub: details.session?.accountId }, 'device allowed');
      await provider.interactionFinished(req, res, { [DEVICE_PROMPT]: approved }, { mergeWithLastSubmission: true });
      return;
    }
    if (decision === 'deny') {
      logger.info({ interaction: uid, sub: details.session?.accountId }, 'device denied');
      // The library records this on the device code, so the device's next poll gets access_denied.
      await provider.interactionFinished(
        req,
        res,
        { error: 'access_denied', error_description: 'End-User denied the device sign-in' },
        { mergeWithLastSubmission: false },
      );
      return;
    }
    throw new HttpError(400, 'Expected decision "allow" or "deny".');
  }

  async function finishConsent(req: IncomingMessage, res: ServerResponse, details: InteractionDetails) {
    // Only reached if loadExistingGrant did not cover the request; grant what is missing.
    const { prompt, params, session, grantId } = details;
    const accountId = session?.accountId;
    const clientId = typeof params.client_id === 'string' ? params.client_id : undefined;
    if (!accountId || !clientId) throw new HttpError(400, 'Interaction has no signed-in user.');
    const grant = (grantId ? await provider.Grant.find(grantId) : undefined) ?? new provider.Grant({ accountId, clientId });
    const missing = prompt.details as {
      missingOIDCScope?: string[];
      missingOIDCClaims?: string[];
      missingResourceScopes?: Record<string, string[]>;
    };
    if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
    if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
    for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {})) {
      grant.addResourceScope(indicator, scopes.join(' '));
    }
    await provider.interactionFinished(req, res, { consent: { grantId: await grant.save() } }, {
      mergeWithLastSubmission: true,
    });
  }

  return async function handleInteraction(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const match = INTERACTION_ROUTE.exec(path);
    if (!match) {
      page(res, 404, (nonce) => messagePage({ title: 'Page not found', message: 'There is no page here.', nonce }));
      return;
    }
    const uid = match[1]!;
    const action = match[2] as keyof typeof PROMPT_FOR_ACTION | undefined;
    const method = req.method ?? 'GET';
    if ((action && method !== 'POST') || (!action && method !== 'GET' && method !== 'HEAD')) {
      res.writeHead(405, { Allow: action ? 'POST' : 'GET, HEAD' }).end();
      return;
    }
    const locale = localeOf(req);

    let details: InteractionDetails;
    try {
      details = await provider.interactionDetails(req, res);
    } catch (error) {
      if (error instanceof errors.SessionNotFound) {
        expired(res);
        return;
      }
      throw error;
    }
    // The cookie names the interaction this browser started; a different uid is a stale tab.
    if (details.uid !== uid) {
      expired(res);
      return;
    }

    if (!action) {
      if (details.prompt.name === 'consent') {
        await finishConsent(req, res, details);
        return;
      }
      if (details.prompt.name === DEVICE_PROMPT) {
        renderDeviceConfirm(res, uid, details, locale);
        return;
      }
      const loginHint = typeof details.params.login_hint === 'string' ? details.params.login_hint : undefined;
      page(res, 200, (nonce) => renderSignIn(uid, nonce, locale, loginHint));
      return;
    }

    if (details.prompt.name !== PROMPT_FOR_ACTION[action]) {
      throw new HttpError(400, `This interaction does not expect ${action === 'login' ? 'a sign-in' : 'a device decision'}.`);
    }
    if (action === 'device') {
      await finishDeviceConfirm(req, res, uid, details);
      return;
    }
    const form = await readForm(req);
    const email = form.get('email')?.trim() ?? '';
    const password = form.get('password') ?? '';
    const address = addressKey(req.socket.remoteAddress);
    // Counted by the email as typed (normalised), known or not, so a refusal never tells whether
    // the account exists.
    const attempt = guard.begin({ account: `account:${normalizeEmail(email)}`, address: `address:${address}` });
    if (isRefusal(attempt)) {
      // Refused before the password is hashed: a locked account or a capped address costs the
      // provider nothing, so a flood of guesses cannot take its CPU from everyone else.
      logger.warn({ interaction: uid, address, limit: attempt.reason }, 'sign-in refused: too many failed attempts');
      const minutes = Math.ceil(attempt.retryAfterSeconds / 60);
      const text = messagesFor(locale).signIn;
      const message = attempt.reason === 'account' ? text.accountLocked(minutes) : text.tooManyAttempts(minutes);
      page(res, 429, (nonce) => renderSignIn(uid, nonce, locale, email, message), {
        'Retry-After': String(attempt.retryAfterSeconds),
      });
      return;
    }
    // The attempt already counts as failed (guard.begin), so posts racing this one during the
    // hash see it; only the right password takes it back.
    const account = await users.verifyCredentials(email, password);
    if (!account) {
      attempt.failed();
      logger.info({ interaction: uid, address }, 'sign-in refused: invalid credentials');
      page(res, 200, (nonce) => renderSignIn(uid, nonce, locale, email, messagesFor(locale).signIn.invalidCredentials));
      return;
    }
    // The owner got in: earlier typos should not shorten their next attempts (Keycloak also
    // clears a user's failures on success). The address keeps its earlier failures: otherwise an
    // attacker with any account of their own could sign in now and then to keep guessing others'.
    attempt.succeeded();
    logger.info({ interaction: uid, sub: account.id }, 'user signed in');
    await provider.interactionFinished(req, res, { login: { accountId: account.id } }, {
      mergeWithLastSubmission: false,
    });
  };
}

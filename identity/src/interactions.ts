import type { IncomingMessage, ServerResponse } from 'node:http';

import type { Logger } from 'pino';
import type Provider from 'oidc-provider';
import { errors } from 'oidc-provider';

import { verifyCredentials } from './accounts';
import { HttpError, readForm, sendHtml } from './http';
import { createNonce, securityHeaders } from './views/html';
import { messagePage } from './views/message-page';
import { INVALID_CREDENTIALS, signInPage } from './views/sign-in-page';

type InteractionDetails = Awaited<ReturnType<Provider['interactionDetails']>>;

export interface InteractionHandlerOptions {
  provider: Provider;
  /** The realm path the provider is mounted under, e.g. `/realms/main`. */
  mountPath: string;
  frontendOrigins: string[];
  logger: Logger;
}

const INTERACTION_ROUTE = /^\/interaction\/([A-Za-z0-9_-]+)(\/login)?$/;

/**
 * Our sign-in page. The provider sends the browser to `{realm}/interaction/{uid}` whenever it
 * needs the user; the form posts to `{realm}/interaction/{uid}/login` (below the interaction
 * cookie's path, so the cookie comes along).
 */
export function createInteractionHandler({ provider, mountPath, frontendOrigins, logger }: InteractionHandlerOptions) {
  const page = (res: ServerResponse, status: number, render: (nonce: string) => string): void => {
    const nonce = createNonce();
    sendHtml(res, status, render(nonce), securityHeaders({ nonce, frontendOrigins }));
  };

  const expired = (res: ServerResponse): void =>
    page(res, 400, (nonce) =>
      messagePage({
        title: 'Sign-in expired',
        message: 'This sign-in page has expired. Return to the application and sign in again.',
        nonce,
      }),
    );

  const renderSignIn = (uid: string, nonce: string, email?: string, error?: string) =>
    signInPage({ action: `${mountPath}/interaction/${uid}/login`, nonce, email, error });

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
    const [, uid, isLoginPost] = match;
    const method = req.method ?? 'GET';
    if ((isLoginPost && method !== 'POST') || (!isLoginPost && method !== 'GET' && method !== 'HEAD')) {
      res.writeHead(405, { Allow: isLoginPost ? 'POST' : 'GET, HEAD' }).end();
      return;
    }

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

    if (!isLoginPost) {
      if (details.prompt.name === 'consent') {
        await finishConsent(req, res, details);
        return;
      }
      const loginHint = typeof details.params.login_hint === 'string' ? details.params.login_hint : undefined;
      page(res, 200, (nonce) => renderSignIn(uid!, nonce, loginHint));
      return;
    }

    if (details.prompt.name !== 'login') {
      throw new HttpError(400, 'This interaction does not expect a sign-in.');
    }
    const form = await readForm(req);
    const email = form.get('email')?.trim() ?? '';
    const password = form.get('password') ?? '';
    const account = verifyCredentials(email, password);
    if (!account) {
      logger.info({ interaction: uid }, 'sign-in refused: invalid credentials');
      page(res, 200, (nonce) => renderSignIn(uid!, nonce, email, INVALID_CREDENTIALS));
      return;
    }
    logger.info({ interaction: uid, sub: account.sub }, 'user signed in');
    await provider.interactionFinished(req, res, { login: { accountId: account.sub } }, {
      mergeWithLastSubmission: false,
    });
  };
}

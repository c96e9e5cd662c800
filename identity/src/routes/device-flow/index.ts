import type { Logger } from 'pino';
import type Provider from 'oidc-provider';
import { interactionPolicy, type Configuration, type KoaContextWithOIDC } from 'oidc-provider';

import { addressKey } from '../../security/attempt-limiter';
import type { SignInGuard } from '../../security/brute-force';
import { DEFAULT_LOCALE, LOCALE_COOKIE, LOCALE_PARAM, type Locale, messagesFor, parseLocale } from '../../i18n/locale';
import { deviceSuccessPage, userCodePage } from './pages';
import type { Pages } from '../../http/pages';
import { messagePage } from '../../views/message-page';

/**
 * OAuth 2.0 Device Authorization Grant (RFC 8628) the way Keycloak offers it: the device asks
 * `{realm}/protocol/openid-connect/auth/device` for a code, the user types it at `{realm}/device`,
 * signs in, allows the device, and the device polls the token endpoint.
 */
export const DEVICE_CODE_GRANT_TYPE = 'urn:ietf:params:oauth:grant-type:device_code';

/** Keycloak's default lifespan of a device code (and so of its user code). */
export const DEVICE_CODE_TTL_SECONDS = 600;

/** Keycloak's default "OAuth 2.0 Device Polling Interval"; the library does not answer one. */
export const DEVICE_POLLING_INTERVAL_SECONDS = 5;

/** Keycloak's user codes look like `WDJB-MJHT`; base-20 leaves out vowels and look-alikes. */
const USER_CODE_MASK = '****-****';

/** Name of our interaction prompt that asks "Allow the device to sign in as …?" after sign-in. */
export const DEVICE_PROMPT = 'device_confirm';

/** What our confirmation page stores in the interaction result when the user allows the device. */
export interface DeviceConfirmResult {
  approved: true;
}

export interface DevicePromptDetails {
  /** Formatted for display, e.g. `BCDF-GHJK`. */
  userCode: string;
  [key: string]: unknown;
}

type ProviderMiddleware = Parameters<Provider['use']>[0];
type DeviceFlowFeature = NonNullable<NonNullable<Configuration['features']>['deviceFlow']>;

const LOCALE_STATE = 'portalLocale';
const PREFILL_STATE = 'portalUserCode';
/** Set by the code page when a typed code matched no device, for the middleware to count. */
const UNKNOWN_CODE_STATE = 'portalUnknownUserCode';

/** `BCDFGHJK` (how the library stores it) → `BCDF-GHJK`. */
export function formatUserCode(normalized: string, mask = USER_CODE_MASK): string {
  let index = 0;
  let formatted = '';
  for (const char of mask) {
    if (index >= normalized.length) break;
    formatted += char === '*' ? normalized[index++] : char;
  }
  return formatted + normalized.slice(index);
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Buffer.isBuffer(value);

const stateOf = (ctx: { state: unknown }): Record<string, unknown> => ctx.state as Record<string, unknown>;

const localeOf = (ctx: { state: unknown }): Locale =>
  (stateOf(ctx)[LOCALE_STATE] as Locale | undefined) ?? DEFAULT_LOCALE;

export interface DeviceFlowMiddlewareOptions {
  /** The realm path the provider is mounted under, e.g. `/realms/main`. */
  mountPath: string;
  /** Routes relative to the realm: the user code page and the device authorization endpoint. */
  verificationRoute: string;
  authorizationRoute: string;
  pages: Pages;
  /** Unknown user codes count against the client address's cap, with failed sign-ins. */
  guard: SignInGuard;
}

/**
 * Runs around the provider's routes. Remembers `kc_locale` in Keycloak's locale cookie (scoped to
 * the realm, so our sign-in page outside the provider sees it too), and takes `user_code` off
 * `GET {realm}/device`: the library would answer it with a self-submitting form that needs inline
 * script and skips the page; we show the code entry page pre-filled instead, so the user sees it.
 * Device authorization answers get Keycloak's `interval`, which the library leaves out.
 *
 * Posted user codes are limited per client address like passwords: a code is only 8 letters of 20
 * (about 2.6e10), and anyone may type at the page, so guessing must stay slow.
 */
export function deviceFlowMiddleware({
  mountPath,
  verificationRoute,
  authorizationRoute,
  pages,
  guard,
}: DeviceFlowMiddlewareOptions): ProviderMiddleware {
  return async (ctx, next) => {
    const raw = ctx.query[LOCALE_PARAM];
    const requested = ctx.method === 'GET' && typeof raw === 'string' ? parseLocale(raw) : undefined;
    if (requested) {
      ctx.cookies.set(LOCALE_COOKIE, requested, {
        path: mountPath,
        httpOnly: true,
        sameSite: 'lax',
        signed: false,
        overwrite: true,
      });
    }
    const state = stateOf(ctx);
    state[LOCALE_STATE] = requested ?? parseLocale(ctx.cookies.get(LOCALE_COOKIE, { signed: false })) ?? DEFAULT_LOCALE;

    if (ctx.method === 'GET' && ctx.path === verificationRoute && 'user_code' in ctx.query) {
      const { user_code: userCode, ...rest } = ctx.query;
      if (typeof userCode === 'string') state[PREFILL_STATE] = userCode.slice(0, 64);
      ctx.query = rest;
    }

    const postsCode = ctx.method === 'POST' && ctx.path === verificationRoute;
    const address = `address:${addressKey(ctx.req.socket.remoteAddress)}`;
    const wait = postsCode ? (guard.check({ address })?.retryAfterSeconds ?? 0) : 0;
    if (wait > 0) {
      const locale = localeOf(ctx);
      const text = messagesFor(locale).device;
      ctx.status = 429;
      ctx.set('Retry-After', String(wait));
      pages.sendFromProvider(ctx, (frame) =>
        messagePage(frame, { title: text.title, message: text.tooManyAttempts(Math.ceil(wait / 60)), lang: locale }),
      );
      return;
    }
    await next();
    if (postsCode && state[UNKNOWN_CODE_STATE] === true) guard.fail({ address });

    if (ctx.method === 'POST' && ctx.path === authorizationRoute && ctx.status === 200 && isRecord(ctx.body)) {
      ctx.body.interval = DEVICE_POLLING_INTERVAL_SECONDS;
    }
  };
}

/** The re-render errors of oidc-provider's code verification, by class name. */
function userCodeError(err: Error | undefined, out: { error?: string } | undefined, locale: Locale): string | undefined {
  const text = messagesFor(locale).device;
  if (!err && !out) return undefined;
  switch (err?.name) {
    case 'NoCodeError':
      return text.missingCode;
    case 'NotFoundError':
      return text.invalidCode;
    case 'ExpiredError':
      return text.expiredCode;
    case 'AlreadyUsedError':
      return text.usedCode;
    case 'AbortedError':
      return text.cancelled;
    default:
      return text.failed;
  }
}

export interface DeviceFlowOptions {
  /** Where the user code form posts: the code verification route below the realm path. */
  action: string;
  pages: Pages;
  logger: Logger;
}

export function deviceFlowFeature({ action, pages, logger }: DeviceFlowOptions): DeviceFlowFeature {

  const renderUserCodePage = (ctx: KoaContextWithOIDC, options: { userCode?: string; error?: string }): void => {
    // The secret the library checks against the form's `xsrf` field; it has just stored it in the
    // session before asking for this page (and passes the same value inside its own form).
    const xsrf = (ctx.oidc.session?.state as { secret?: unknown } | undefined)?.secret;
    if (typeof xsrf !== 'string') throw new Error('device code page rendered without an xsrf secret');
    const locale = localeOf(ctx);
    pages.sendFromProvider(ctx, (frame) => userCodePage(frame, { action, xsrf, locale, ...options }));
  };

  return {
    enabled: true,
    charset: 'base-20',
    mask: USER_CODE_MASK,
    async userCodeInputSource(ctx, _form, out, err) {
      const error = userCodeError(err, out, localeOf(ctx));
      // Typos are routine and a denial is logged where it happens; anything else is worth a line.
      if (error && !['NotFoundError', 'NoCodeError', 'AbortedError'].includes(err?.name ?? '')) {
        logger.info({ error: out?.error, description: out?.error_description, reason: err?.name }, 'device code refused');
      }
      if (err?.name === 'NotFoundError') stateOf(ctx)[UNKNOWN_CODE_STATE] = true;
      const typed = (err as { userCode?: unknown } | undefined)?.userCode;
      const prefill = stateOf(ctx)[PREFILL_STATE];
      renderUserCodePage(ctx, {
        userCode: typeof typed === 'string' ? typed : typeof prefill === 'string' ? prefill : undefined,
        error,
      });
    },
    // Only reached when a code is posted without `confirm=yes` (our own form always sends it):
    // show the code entry page with that code, so one click continues to sign-in.
    async userCodeConfirmSource(ctx, _form, _client, _deviceInfo, userCode) {
      renderUserCodePage(ctx, { userCode });
    },
    async successSource(ctx) {
      logger.info({ sub: ctx.oidc.session?.accountId, client: ctx.oidc.client?.clientId }, 'device signed in');
      const locale = localeOf(ctx);
      pages.sendFromProvider(ctx, (frame) => deviceSuccessPage(frame, { locale }));
    },
  };
}

/**
 * Asks the signed-in user to allow the device, on every device sign-in (an existing session is
 * not consent to sign in a device someone else may be holding). Comes after login and consent in
 * the policy, so the page can name the user.
 */
export function devicePrompt(): interactionPolicy.Prompt {
  const { Check, Prompt } = interactionPolicy;
  return new Prompt(
    { name: DEVICE_PROMPT, requestable: false },
    async (ctx): Promise<DevicePromptDetails> => ({
      userCode: formatUserCode(ctx.oidc.deviceCode?.userCode ?? ''),
    }),
    new Check('device_not_confirmed', 'the End-User has not allowed the device', (ctx) => {
      if (!ctx.oidc.deviceCode) return Check.NO_NEED_TO_PROMPT;
      const result = ctx.oidc.result as { [DEVICE_PROMPT]?: Partial<DeviceConfirmResult> } | undefined;
      return result?.[DEVICE_PROMPT]?.approved === true ? Check.NO_NEED_TO_PROMPT : Check.REQUEST_PROMPT;
    }),
  );
}

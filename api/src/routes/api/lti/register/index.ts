import { createHash } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { LtiRegistrationError } from '@portal/contract';
import {
  createDynamicRegistration,
  RegistrationRefused,
} from '../../../../lti/dynamic-registration';
import { escapeHtml } from '../../../../lib/escape-html';
import { createOutboundClient, outboundPolicyFor } from '../../../../lib/outbound-http';
import { PORTAL_TOKEN_PATTERN } from '../../../../repositories/lti-registration-repository';
import {
  claimRegistrationAttempt,
  registerPlatform,
} from '../../../../services/lti/dynamic-registration';

/** The name the platform shows for the tool. */
export const TOOL_CLIENT_NAME = 'Simulation Portal';

const RegisterQuery = Type.Object({
  openid_configuration: Type.String({ minLength: 1, maxLength: 2000 }),
  registration_token: Type.Optional(Type.String({ maxLength: 4000 })),
  portal_token: Type.String({ minLength: 1, maxLength: 100 }),
});

type Language = 'en' | 'de';

const TEXT: Record<
  Language,
  {
    doneTitle: string;
    done: string;
    failedTitle: string;
    code: string;
    errors: Record<LtiRegistrationError, string>;
  }
> = {
  en: {
    doneTitle: 'Registration complete',
    done: 'Registration complete — you can close this window.',
    failedTitle: 'Registration failed',
    code: 'Error code',
    errors: {
      INVALID_REQUEST:
        'The learning platform did not open this page as LTI Dynamic Registration does: the openid_configuration or the portal token is missing.',
      INVALID_PORTAL_TOKEN:
        'This registration URL is unknown, has expired, has already been used or has failed three times. Ask a portal administrator for a new one.',
      INSECURE_URL: 'The learning platform’s addresses must use https. Nothing was registered.',
      CONFIGURATION_UNAVAILABLE:
        'The learning platform’s configuration could not be read. Try again later. Nothing was registered.',
      INVALID_CONFIGURATION:
        'The learning platform’s configuration is incomplete or not valid. Nothing was registered.',
      ISSUER_MISMATCH:
        'The learning platform’s configuration names an issuer that does not match its address. Nothing was registered.',
      REGISTRATION_REFUSED:
        'The learning platform refused the registration. Start it again from the platform. Nothing was registered.',
      INVALID_REGISTRATION:
        'The learning platform’s answer to the registration is not valid, or its client id belongs to another organisation. Nothing was registered.',
    },
  },
  de: {
    doneTitle: 'Registrierung abgeschlossen',
    done: 'Registrierung abgeschlossen – Sie können dieses Fenster schließen.',
    failedTitle: 'Registrierung fehlgeschlagen',
    code: 'Fehlercode',
    errors: {
      INVALID_REQUEST:
        'Die Lernplattform hat diese Seite nicht wie bei der LTI Dynamic Registration geöffnet: openid_configuration oder das Portal-Token fehlt.',
      INVALID_PORTAL_TOKEN:
        'Diese Registrierungs-URL ist unbekannt, abgelaufen, wurde bereits verwendet oder ist dreimal fehlgeschlagen. Bitten Sie eine Portal-Administration um eine neue.',
      INSECURE_URL:
        'Die Adressen der Lernplattform müssen https verwenden. Es wurde nichts registriert.',
      CONFIGURATION_UNAVAILABLE:
        'Die Konfiguration der Lernplattform konnte nicht gelesen werden. Versuchen Sie es später erneut. Es wurde nichts registriert.',
      INVALID_CONFIGURATION:
        'Die Konfiguration der Lernplattform ist unvollständig oder ungültig. Es wurde nichts registriert.',
      ISSUER_MISMATCH:
        'Die Konfiguration der Lernplattform nennt einen Aussteller, der nicht zu ihrer Adresse passt. Es wurde nichts registriert.',
      REGISTRATION_REFUSED:
        'Die Lernplattform hat die Registrierung abgelehnt. Starten Sie sie erneut in der Plattform. Es wurde nichts registriert.',
      INVALID_REGISTRATION:
        'Die Antwort der Lernplattform auf die Registrierung ist ungültig, oder ihre Client-ID gehört einer anderen Organisation. Es wurde nichts registriert.',
    },
  },
};

/** The language the browser prefers most among the page's two; English otherwise. */
export function pageLanguage(acceptLanguage: string | undefined): Language {
  const ranked = (acceptLanguage ?? '')
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find(Boolean);
      return { tag: tag.toLowerCase(), q: q === undefined ? 1 : Number(q), index };
    })
    .filter((l) => l.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const { tag } of ranked) {
    if (tag === 'de' || tag.startsWith('de-')) return 'de';
    if (tag === 'en' || tag.startsWith('en-')) return 'en';
  }
  return 'en';
}

/**
 * Tells the platform the registration is over (Dynamic Registration §3.6.2): its window or
 * iframe listens for this message; '*' because the spec says so and the message carries nothing.
 */
const CLOSE_SCRIPT =
  "(window.opener || window.parent).postMessage({ subject: 'org.imsglobal.lti.close' }, '*');";
const CLOSE_SCRIPT_HASH = `'sha256-${createHash('sha256').update(CLOSE_SCRIPT).digest('base64')}'`;

/**
 * LTI Dynamic Registration 1.0, the tool's initiation URL (issue #10 point 1). Public — the
 * platform's administrator opens it from the platform — so what authorises it is the portal
 * token in the URL: single use, 24 hours, made by a global administrator for one organisation
 * (POST /api/v1/organisation/{id}/lti/registration-token). The page shows in the platform's
 * iframe or window; it has no controls, so being framed by any https page harms nothing.
 */
const ltiRegisterRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { portalUrl } = app.config;
  const outbound = createOutboundClient({ policy: outboundPolicyFor(portalUrl) });
  app.addHook('onClose', () => outbound.close());
  const dynamic = createDynamicRegistration({
    portalUrl,
    clientName: TOOL_CLIENT_NAME,
    outbound,
  });
  const devPortal = new URL(portalUrl).protocol === 'http:';
  const frameAncestors = devPortal
    ? 'https: http://localhost:* http://127.0.0.1:* http://[::1]:*'
    : 'https:';

  // The API's default headers forbid framing (X-Frame-Options DENY); the page's own CSP says
  // who may frame it instead. This hook runs after the root's, which has filled that header in.
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.removeHeader('x-frame-options');
    return payload;
  });

  const page = (
    reply: FastifyReply,
    status: number,
    lang: Language,
    title: string,
    body: string,
    script: boolean,
  ) =>
    reply
      .code(status)
      .header(
        'content-security-policy',
        [
          "default-src 'none'",
          script ? `script-src ${CLOSE_SCRIPT_HASH}` : "script-src 'none'",
          "style-src 'unsafe-inline'",
          "base-uri 'none'",
          "form-action 'none'",
          `frame-ancestors ${frameAncestors}`,
        ].join('; '),
      )
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(
        `<!doctype html>
<html lang="${lang}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;margin:2rem;line-height:1.5;color:#1a1a1a}</style></head>
<body>
<main>
${body}
</main>
${script ? `<script>${CLOSE_SCRIPT}</script>` : ''}
</body>
</html>
`,
      );

  const failed = (reply: FastifyReply, lang: Language, code: LtiRegistrationError) => {
    const text = TEXT[lang];
    return page(
      reply,
      // 400 also when the platform failed: the page is the platform administrator's answer,
      // and a 5xx would say the portal is broken.
      400,
      lang,
      text.failedTitle,
      `<h1>${escapeHtml(text.failedTitle)}</h1>
<p role="alert">${escapeHtml(text.errors[code])}</p>
<p>${escapeHtml(text.code)}: <code>${code}</code></p>`,
      false,
    );
  };

  app.get(
    '',
    {
      // A HEAD must not register anything.
      exposeHeadRoute: false,
      // Bad parameters still get the HTML page the platform's window can show, not JSON.
      attachValidation: true,
      config: { public: true },
      schema: {
        tags: ['lti'],
        summary:
          'LTI Dynamic Registration: registers the tool with the platform for the portal token’s organisation',
        querystring: RegisterQuery,
        response: {
          200: Type.String({ description: 'text/html' }),
          400: Type.String({ description: 'text/html' }),
        },
      },
    },
    async (request, reply) => {
      const lang = pageLanguage(request.headers['accept-language']);
      if (request.validationError) return failed(reply, lang, 'INVALID_REQUEST');
      const {
        openid_configuration: configuration,
        registration_token: registrationToken,
        portal_token: portalToken,
      } = request.query;
      if (
        !PORTAL_TOKEN_PATTERN.test(portalToken) ||
        !(await claimRegistrationAttempt(app, portalToken))
      ) {
        return failed(reply, lang, 'INVALID_PORTAL_TOKEN');
      }
      try {
        const endpoints = await dynamic.platformConfiguration(
          dynamic.configurationUrl(configuration),
        );
        const client = await dynamic.register(endpoints, registrationToken || undefined);
        const outcome = await registerPlatform(app, portalToken, endpoints, client);
        if (!outcome.ok) {
          return failed(
            reply,
            lang,
            outcome.reason === 'token' ? 'INVALID_PORTAL_TOKEN' : 'INVALID_REGISTRATION',
          );
        }
        request.log.info(
          { platform: outcome.platform.id, issuer: endpoints.issuer },
          'LTI platform registered dynamically',
        );
      } catch (error) {
        if (!(error instanceof RegistrationRefused)) throw error;
        request.log.warn(
          { lti: { code: error.code, reason: error.reason } },
          'LTI registration refused',
        );
        return failed(reply, lang, error.code);
      }
      const text = TEXT[lang];
      return page(
        reply,
        200,
        lang,
        text.doneTitle,
        `<h1>${escapeHtml(text.doneTitle)}</h1>
<p role="status">${escapeHtml(text.done)}</p>`,
        true,
      );
    },
  );
};

export default ltiRegisterRoutes;

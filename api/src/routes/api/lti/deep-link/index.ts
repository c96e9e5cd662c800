import { createHash } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { FieldErrors, LTI_DEEP_LINK_MESSAGES, LtiDeepLinkParams } from '@portal/contract';
import { createDeepLinking } from '../../../../lti/deep-linking';
import { dropFrameOptionsOfPages } from '../../../../lti/framed-pages';
import { registeredFrameOrigins } from '../../../../lti/frame-origins';
import { createToolKeys } from '../../../../lti/tool-keys';
import { badRequest } from '../../../../lib/http-errors';
import { escapeHtml } from '../../../../lib/escape-html';
import { acceptFormBodies } from '../../../../lib/form-body';

/** A deep linking response JWT is a few kB; far more is not one. */
const FORM_BODY_LIMIT = 64 * 1024;

const ReturnForm = Type.Object({
  JWT: Type.String({ minLength: 1, maxLength: FORM_BODY_LIMIT }),
  language: Type.Optional(Type.String({ maxLength: 10 })),
});

const TEXT = {
  en: {
    title: 'Returning to your learning platform…',
    message: 'Your selection is being sent to your learning platform.',
    button: 'Continue',
  },
  de: {
    title: 'Zurück zu Ihrer Lernplattform …',
    message: 'Ihre Auswahl wird an Ihre Lernplattform gesendet.',
    button: 'Weiter',
  },
} as const;

/** The page's one script; allowed by its hash, so no other script can run on the page. */
const SUBMIT_SCRIPT = "document.getElementById('return').submit();";
const SUBMIT_SCRIPT_HASH = `'sha256-${createHash('sha256').update(SUBMIT_SCRIPT).digest('base64')}'`;

/**
 * The return URL as a CSP source: origin and path (a query never takes part in the match), with
 * the characters that would end a source or a directive percent-encoded.
 */
export function formActionSource(returnUrl: string): string {
  const url = new URL(returnUrl);
  return `${url.origin}${url.pathname.replace(/[;,\s']/g, (c) => encodeURIComponent(c))}`;
}

/**
 * The last step of Deep Linking 2.0 (§4.2): the browser carries the signed answer to the
 * platform's `deep_link_return_url` as the form field `JWT`. The host's pages may post forms only
 * to their own origin (form-action 'self'), and widening that to every registered platform's URL
 * would let any script-injected form on any portal page post there too. So the picker posts the
 * JWT here, on its own origin, and this page — with a policy allowing exactly the one return URL
 * and its own one script — posts it on. Only a JWT the API signed for this launch within its
 * lifetime is posted, to the return URL the platform itself sent in its signed request: the page
 * is no way to post arbitrary data anywhere.
 */
const ltiDeepLinkReturnRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const deepLinking = createDeepLinking(app.db, createToolKeys(app.db), app.config.portalUrl);

  // The pages run in the platform's frame; their own CSP says who may frame them.
  app.addHook('onSend', dropFrameOptionsOfPages);

  acceptFormBodies(app, FORM_BODY_LIMIT);

  app.post(
    '/:launchId/return',
    {
      // A form post of the picker page: it cannot send the XSRF header, and the JWT itself is
      // what it proves — one the API signed for this launch moments ago.
      config: { public: true, xsrf: false },
      schema: {
        tags: ['lti'],
        summary: 'Deep linking: a page that auto-posts the signed answer (JWT) to the platform',
        params: LtiDeepLinkParams,
        body: ReturnForm,
        response: { 200: Type.String({ description: 'text/html' }), 400: FieldErrors },
      },
    },
    async (request, reply) => {
      const { JWT: jwt, language } = request.body;
      const returnUrl = await deepLinking.returnUrlFor(request.params.launchId, jwt);
      if (!returnUrl) throw badRequest({ JWT: [LTI_DEEP_LINK_MESSAGES.invalidResponse] });
      const lang = language === 'de' ? 'de' : 'en';
      const text = TEXT[lang];
      // The picker may run in the platform's frame (an embedded launch), and so does this page.
      const { origins: frameAncestors } = await registeredFrameOrigins(app.db, app.config.portalUrl);
      return reply
        .header(
          'content-security-policy',
          [
            "default-src 'none'",
            `script-src ${SUBMIT_SCRIPT_HASH}`,
            `form-action ${formActionSource(returnUrl)}`,
            "base-uri 'none'",
            `frame-ancestors ${frameAncestors.length > 0 ? frameAncestors.join(' ') : "'none'"}`,
          ].join('; '),
        )
        .header('cache-control', 'no-store')
        .type('text/html; charset=utf-8')
        .send(
          `<!doctype html>
<html lang="${lang}">
<head><meta charset="utf-8"><title>${escapeHtml(text.title)}</title></head>
<body>
<form id="return" method="post" action="${escapeHtml(returnUrl)}">
<input type="hidden" name="JWT" value="${escapeHtml(jwt)}">
<p>${escapeHtml(text.message)}</p>
<button type="submit">${escapeHtml(text.button)}</button>
</form>
<script>${SUBMIT_SCRIPT}</script>
</body>
</html>
`,
        );
    },
  );
};

export default ltiDeepLinkReturnRoutes;

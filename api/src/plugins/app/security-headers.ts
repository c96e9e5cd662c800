import fp from 'fastify-plugin';
import { securityHeaders } from '@portal/service-kit';

/**
 * The API answers JSON and files, never a page: nothing it sends may run, load anything, be
 * framed or leak the URL it came from. A route that sets its own policy (the storage route's
 * `sandbox`) keeps it; HSTS goes out when the request came over https (TRUST_PROXY decides
 * whether X-Forwarded-Proto counts, through Fastify's `request.protocol`).
 */
export const API_CSP = {
  defaultSrc: ["'none'"],
  frameAncestors: ["'none'"],
  objectSrc: ["'none'"],
  baseUri: ["'none'"],
};

export const securityHeadersPlugin = fp(
  async (app) => {
    app.addHook('onSend', securityHeaders({ csp: API_CSP, referrerPolicy: 'no-referrer' }).onSendHook);
  },
  { name: 'security-headers' },
);

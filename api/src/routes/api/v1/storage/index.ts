import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { Detail } from '@portal/contract';
import { notFound } from '../../../../lib/http-errors';

/** Shown in an <img> on the portal's pages; nothing else a user uploads is ever rendered inline. */
const INLINE_TYPES = new Set(['image/png', 'image/jpeg']);

/**
 * A file opened on its own (a link, a new tab) gets an opaque origin and no scripts, plugins or
 * subresources, so even a file that is not what its type claims cannot act as the API's origin.
 */
export const FILE_CSP =
  "sandbox; default-src 'none'; style-src 'unsafe-inline'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

/**
 * Serves a signed URL made by `app.storage.signedUrl`. Public on purpose: the signature and
 * expiry are the credential, so an <img> tag or a download link works without a bearer token.
 */
export const storageRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/*',
    {
      config: { public: true },
      schema: {
        tags: ['file'],
        summary: 'A stored file behind a short-lived signed URL',
        querystring: Type.Object({
          expires: Type.Optional(Type.String({ maxLength: 20 })),
          type: Type.Optional(Type.String({ maxLength: 100 })),
          name: Type.Optional(Type.String({ maxLength: 255 })),
          sig: Type.Optional(Type.String({ maxLength: 100 })),
        }),
        response: { 404: Detail },
      },
    },
    async (request, reply) => {
      const key = (request.params as { '*': string })['*'];
      const allowed = app.storage.verify(key, request.query);
      if (!allowed) throw notFound();
      const file = await app.storage.open(key);
      if (!file) throw notFound();
      reply
        .header('content-type', allowed.contentType)
        .header('content-length', file.size)
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', FILE_CSP)
        .header('cache-control', 'private, max-age=60');
      const name = allowed.downloadName
        ? `; filename*=UTF-8''${encodeURIComponent(allowed.downloadName)}`
        : '';
      // A named download is always saved; an unnamed PNG or JPEG may show in an <img>.
      const inline = !allowed.downloadName && INLINE_TYPES.has(allowed.contentType.toLowerCase());
      reply.header('content-disposition', `${inline ? 'inline' : 'attachment'}${name}`);
      // The body is a byte stream, not a schema'd JSON reply.
      return reply.send(file.stream as never);
    },
  );
};

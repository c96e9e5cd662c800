import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { Detail } from '@portal/contract';
import { notFound } from '../../../../lib/http-errors';
import { contentDisposition } from '../../../../storage/storage';

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
const storageRoutes: FastifyPluginAsyncTypebox = async (app) => {
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
      reply.header(
        'content-disposition',
        contentDisposition(allowed.contentType, allowed.downloadName),
      );
      // The body is a byte stream, not a schema'd JSON reply.
      return reply.send(file.stream as never);
    },
  );
};

export default storageRoutes;

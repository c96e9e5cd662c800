import type { FastifyInstance } from 'fastify';

/**
 * Lets the plugin's routes read `application/x-www-form-urlencoded` bodies (platforms' and
 * OAuth clients' form posts) as a flat record: the first value of each field wins, and
 * `__proto__` is never a field.
 */
export function acceptFormBodies(app: FastifyInstance, bodyLimit: number): void {
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit },
    (_request, body, done) => {
      const fields: Record<string, string> = {};
      for (const [k, v] of new URLSearchParams(body as string)) {
        if (!Object.hasOwn(fields, k) && k !== '__proto__') fields[k] = v;
      }
      done(null, fields);
    },
  );
}

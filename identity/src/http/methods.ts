import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods, RouteHandlerMethod, RouteShorthandOptions } from 'fastify';

const METHODS: HTTPMethods[] = ['DELETE', 'GET', 'HEAD', 'PATCH', 'POST', 'PUT', 'OPTIONS'];

export type MethodHandlers = Partial<Record<HTTPMethods, RouteHandlerMethod>>;

export interface AllowOnlyOptions {
  /** Options of each handled method's route (e.g. the admin API's required role). */
  routeOptions?: (method: HTTPMethods) => RouteShorthandOptions;
  /** How another method is refused; by default 405 with an empty body. */
  refuse?: (allow: string, request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;
}

/**
 * Registers a URL's handlers and answers every other method with 405 and an Allow header listing
 * the handled ones in the order given (the router alone would say 404).
 */
export function allowOnly(app: FastifyInstance, url: string, handlers: MethodHandlers, options: AllowOnlyOptions = {}): void {
  const allow = Object.keys(handlers).join(', ');
  for (const [method, handler] of Object.entries(handlers) as [HTTPMethods, RouteHandlerMethod][]) {
    app.route({ ...options.routeOptions?.(method), method, url, handler });
  }
  const refuse = options.refuse ?? (async (value, _request, reply) => reply.code(405).header('Allow', value).send());
  app.route({
    method: METHODS.filter((method) => !(method in handlers)),
    url,
    handler: (request, reply) => refuse(allow, request, reply),
  });
}

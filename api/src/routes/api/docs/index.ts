import type { FastifyPluginAsync } from 'fastify';

/** GET /api/docs/openapi.json: the OpenAPI document the route schemas make. */
export const docsRoutes: FastifyPluginAsync = async (app) => {
  app.get('/openapi.json', { config: { public: true }, schema: { hide: true } }, async () =>
    app.swagger(),
  );
};

export default docsRoutes;

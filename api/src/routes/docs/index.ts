import type { FastifyPluginAsync } from 'fastify';

export const docsRoutes: FastifyPluginAsync = async (app) => {
  app.get(
    '/api/docs/openapi.json',
    { config: { public: true }, schema: { hide: true } },
    async () => app.swagger(),
  );
};

import fp from 'fastify-plugin';
import swagger from '@fastify/swagger';

export const swaggerPlugin = fp(
  async (app) => {
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: 'Simulation Portal API',
          version: '1.0.0',
          description: 'Reference back end of the simulation portal (/api/v1).',
        },
        components: {
          securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
        },
        security: [{ bearer: [] }],
      },
    });
  },
  { name: 'swagger' },
);

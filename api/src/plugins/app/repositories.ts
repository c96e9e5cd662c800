import fp from 'fastify-plugin';
import { createEntitlementRepository } from '../../repositories/entitlement-repository';
import { createLookupRepository } from '../../repositories/lookup-repository';
import { createUserRepository } from '../../repositories/user-repository';

function createRepositories(db: Parameters<typeof createUserRepository>[0]) {
  return {
    users: createUserRepository(db),
    lookups: createLookupRepository(db),
    entitlements: createEntitlementRepository(db),
  };
}
export type Repositories = ReturnType<typeof createRepositories>;

declare module 'fastify' {
  interface FastifyInstance {
    /** The only way routes touch the database. */
    repos: Repositories;
  }
}

export const repositoriesPlugin = fp(
  async (app) => {
    app.decorate('repos', createRepositories(app.db));
  },
  { name: 'repositories', dependencies: ['db'] },
);

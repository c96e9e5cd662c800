import fp from 'fastify-plugin';
import { createAuditRepository } from '../../repositories/audit-repository';
import { createBrightspaceRepository } from '../../repositories/brightspace-repository';
import { createDownloadRepository } from '../../repositories/download-repository';
import { createEntitlementRepository } from '../../repositories/entitlement-repository';
import { createEvidenceRepository } from '../../repositories/evidence-repository';
import { createFileRepository } from '../../repositories/file-repository';
import { createLicenseRepository } from '../../repositories/license-repository';
import { createLtiRepository } from '../../repositories/lti-repository';
import { createLookupRepository } from '../../repositories/lookup-repository';
import { createNotificationRepository } from '../../repositories/notification-repository';
import { createOrganisationRepository } from '../../repositories/organisation-repository';
import { createProductConfigurationRepository } from '../../repositories/product-configuration-repository';
import { createProductRepository } from '../../repositories/product-repository';
import { createReportRepository } from '../../repositories/report-repository';
import { createSessionRepository } from '../../repositories/session-repository';
import { createSimulationDownloadRepository } from '../../repositories/simulation-download-repository';
import { createUserRepository } from '../../repositories/user-repository';

function createRepositories(
  db: Parameters<typeof createUserRepository>[0] & { kind?: 'pglite' | 'postgres' },
  config: { brightspace: unknown } = { brightspace: null },
  /** The caches' time (`app.clock`, which tests move). */
  now: () => number = Date.now,
) {
  return {
    users: createUserRepository(db, { brightspace: config.brightspace !== null, now }),
    lookups: createLookupRepository(db),
    entitlements: createEntitlementRepository(db),
    reports: createReportRepository(db),
    downloads: createDownloadRepository(db),
    files: createFileRepository(db),
    products: createProductRepository(db),
    sessions: createSessionRepository(db),
    evidence: createEvidenceRepository(db),
    organisations: createOrganisationRepository(db),
    licenses: createLicenseRepository(db),
    audit: createAuditRepository(db),
    simulationDownloads: createSimulationDownloadRepository(db),
    notifications: createNotificationRepository(db),
    configurations: createProductConfigurationRepository(db),
    lti: createLtiRepository(db),
    brightspace: createBrightspaceRepository(db),
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
    app.decorate(
      'repos',
      createRepositories(app.db, app.config, () => app.clock.now().getTime()),
    );
  },
  { name: 'repositories', dependencies: ['db', 'config', 'clock'] },
);

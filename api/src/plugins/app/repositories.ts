import fp from 'fastify-plugin';
import type { Db } from '../../db/driver';
import { createAuditRepository } from '../../repositories/audit-repository';
import { createBrightspaceRepository } from '../../repositories/brightspace-repository';
import { createDownloadRepository } from '../../repositories/download-repository';
import { createEmailChangeRepository } from '../../repositories/email-change-repository';
import { createEntitlementRepository } from '../../repositories/entitlement-repository';
import { createEvidenceRepository } from '../../repositories/evidence-repository';
import { createFeedbackRepository } from '../../repositories/feedback-repository';
import { createFileRepository } from '../../repositories/file-repository';
import { createHealthRepository } from '../../repositories/health-repository';
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
  db: Db,
  config: { brightspace: unknown } = { brightspace: null },
) {
  return {
    users: createUserRepository(db, { brightspace: config.brightspace !== null }),
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
    // The signed-in user's own notifications (issue #23 point 3).
    feedback: createFeedbackRepository(db),
    configurations: createProductConfigurationRepository(db),
    lti: createLtiRepository(db),
    brightspace: createBrightspaceRepository(db),
    health: createHealthRepository(db),
    emailChanges: createEmailChangeRepository(db),
  };
}
export type Repositories = ReturnType<typeof createRepositories>;

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The repositories on the pool, for routes' reads (writes go through services/, which make
     * their own on the transaction). Shared, so the caches some of them hold are too.
     */
    repos: Repositories;
  }
}

export const repositoriesPlugin = fp(
  async (app) => {
    app.decorate(
      'repos',
      createRepositories(app.db, app.config),
    );
  },
  { name: 'repositories', dependencies: ['db', 'config'] },
);

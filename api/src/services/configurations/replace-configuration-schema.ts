import type { ProductConfigurationSchema } from '@portal/contract';
import type { Db } from '../../db/driver';
import { configurationSchemaErrors } from '../../lib/configuration-schema';
import { badRequest, orNotFound } from '../../lib/http-errors';
import { type AuditActor, createAuditRepository } from '../../repositories/audit-repository';
import { createProductConfigurationRepository } from '../../repositories/product-configuration-repository';
import { runUnitOfWork } from '../unit-of-work';

/**
 * Replaces a product's configuration JSON Schema (audited as an update of the product). The
 * product is locked first, so two saves audit before → after in order; an unknown product is 404
 * before the schema is looked at. Configurations saved before keep their files.
 */
export function replaceConfigurationSchema(
  deps: { db: Db },
  productId: number,
  schema: Record<string, unknown>,
  actor: AuditActor,
): Promise<ProductConfigurationSchema> {
  return runUnitOfWork(deps.db, async (uow) => {
    const configurations = createProductConfigurationRepository(uow.q);
    const before = orNotFound(await configurations.lockProduct(productId));
    const problems = configurationSchemaErrors(schema);
    if (problems.length > 0) throw badRequest({ schema: problems });
    await configurations.replaceSchema(productId, schema);
    const after = orNotFound(await configurations.product(productId));
    await createAuditRepository(uow.q).record({
      actor,
      action: 'update',
      entityType: 'product',
      entityId: productId,
      organisationId: null,
      before: { configurationSchema: before.schema },
      after: { configurationSchema: after.schema },
    });
    return { product: after.id, schema: after.schema };
  });
}

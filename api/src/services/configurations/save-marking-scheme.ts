import type { FieldErrors, MarkingScheme } from '@portal/contract';
import type { Db } from '../../db/driver';
import { badRequest, notFound } from '../../lib/http-errors';
import { type AuditActor, createAuditRepository } from '../../repositories/audit-repository';
import { createProductConfigurationRepository } from '../../repositories/product-configuration-repository';
import { runUnitOfWork } from '../unit-of-work';

export const MARKING_SCHEME_MESSAGES = {
  partialBelowFull: 'must not be below the full-marks limit',
  maxBelowMin: 'must not be below the minimum',
  noWeight: 'Give at least one criterion a weight above 0.',
} as const;
const M = MARKING_SCHEME_MESSAGES;

/**
 * What the body's JSON Schema (contract MarkingScheme, checked by the route) cannot say: limits
 * that relate to each other. Keys are the fields' paths in the body, as the form names them.
 */
export function markingSchemeErrors(scheme: MarkingScheme): FieldErrors {
  const errors: FieldErrors = {};
  const at = (path: string, message: string) => (errors[`scheme.criteria.${path}`] ??= []).push(message);
  const c = scheme.criteria;
  if (c.centring && c.centring.partialWithinMm < c.centring.fullWithinMm) {
    at('centring.partialWithinMm', M.partialBelowFull);
  }
  if (c.collimation && c.collimation.partialAtMostRatio < c.collimation.fullAtMostRatio) {
    at('collimation.partialAtMostRatio', M.partialBelowFull);
  }
  if (c.kV && c.kV.max < c.kV.min) at('kV.max', M.maxBelowMin);
  if (c.mAs && c.mAs.max < c.mAs.min) at('mAs.max', M.maxBelowMin);
  if (c.exposureIndex && c.exposureIndex.partialWithin < c.exposureIndex.fullWithin) {
    at('exposureIndex.partialWithin', M.partialBelowFull);
  }
  if (c.repeats && c.repeats.partialAtMost < c.repeats.fullAtMost) {
    at('repeats.partialAtMost', M.partialBelowFull);
  }
  if (!Object.values(c).some((rule) => rule && rule.weight > 0)) {
    errors['scheme.criteria'] = [M.noWeight];
  }
  return errors;
}

/**
 * Replaces (or, with null, removes) a configuration's marking scheme, audited as an update of the
 * configuration. Images already marked keep their marks: a scheme applies to later submissions.
 */
export function saveMarkingScheme(
  deps: { db: Db },
  actor: AuditActor,
  productId: number,
  configurationId: number,
  scheme: MarkingScheme | null,
): Promise<{ scheme: MarkingScheme | null }> {
  if (scheme !== null) {
    const errors = markingSchemeErrors(scheme);
    if (Object.keys(errors).length > 0) throw badRequest(errors);
  }
  return runUnitOfWork(deps.db, async (uow) => {
    const configurations = createProductConfigurationRepository(uow.q);
    if (!(await configurations.lock(productId, configurationId))) throw notFound();
    const before = (await configurations.markingScheme(productId, configurationId)) ?? null;
    await configurations.replaceMarkingScheme(configurationId, scheme);
    await createAuditRepository(uow.q).record({
      actor,
      action: 'update',
      entityType: 'product_configuration',
      entityId: configurationId,
      organisationId: null,
      before: { markingScheme: before },
      after: { markingScheme: scheme },
    });
    return { scheme };
  });
}

import { createMetrics } from '@portal/service-kit';

/** The provider's series on /metrics besides requests and Node's defaults (docs/deploy.md). */
export function createIdentityMetrics() {
  const metrics = createMetrics('identity');
  return {
    ...metrics,
    signIns: metrics.counter({
      name: 'identity_sign_ins_total',
      help: 'Password sign-ins by outcome: succeeded, invalid_credentials, locked (the account) or capped (the address)',
      labelNames: ['outcome'],
    }),
    tokensIssued: metrics.counter({
      name: 'identity_tokens_issued_total',
      help: 'Successful token endpoint grants, by grant type',
      labelNames: ['grant_type'],
    }),
  };
}

export type IdentityMetrics = ReturnType<typeof createIdentityMetrics>;

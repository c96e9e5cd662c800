// Development only (`pnpm --filter @portal/remote-admin dev`): the remote runs alone against
// the local identity provider and API. Add this origin to the identity provider's
// FRONTEND_ORIGINS (e.g. http://localhost:8083) so it accepts the redirect.
export const devConfig = {
  productName: 'Simulation Portal',
  mountPath: '/admin',
  apiBaseUrl: '',
  oidc: { authority: 'http://localhost:8180/realms/main', clientId: 'frontend' },
} as const;

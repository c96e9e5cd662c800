// Development only (`pnpm --filter @portal/remote-simulation dev`): the remote runs alone against
// the local identity provider and API. Add this origin to the identity provider's
// FRONTEND_ORIGINS (e.g. http://localhost:8081) so it accepts the redirect.
export const devConfig = {
  productName: 'Simulation Portal',
  mountPath: '/simulation',
  ltiMountPath: '/lti/simulation',
  apiBaseUrl: '',
  oidc: { authority: 'http://localhost:8180/realms/main', clientId: 'frontend' },
} as const;

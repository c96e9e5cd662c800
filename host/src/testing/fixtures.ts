import type { LookupItem, RuntimeConfig } from '@portal/contract';

// The signed-in user is the one every front end's tests use (@portal/shared-auth/testing).
export { currentUser, TEST_USER_ID as USER_ID } from '@portal/shared-auth/testing';

export const ADMIN_PERMISSIONS = ['global.client_access_admin_section', 'global.view_org'];

export function runtimeConfig(overrides: Partial<RuntimeConfig> = {}): RuntimeConfig {
  return {
    productName: 'Simulation Portal',
    version: '1.6.177-test',
    launch: { simulatorUrl: 'http://localhost:8090', launchTimeoutMs: 30000, statusPollMs: 1000 },
    apiBaseUrl: '',
    oidc: { authority: 'http://idp.test/realms/main', clientId: 'frontend' },
    remotes: {
      simulation: 'http://remotes.test/simulation/remoteEntry.js',
      reports: 'http://remotes.test/reports/remoteEntry.js',
      admin: 'http://remotes.test/admin/remoteEntry.js',
    },
    brightspaceHost: null,
    ...overrides,
  };
}

export const LANGUAGES: LookupItem[] = [
  { id: 12001, name: 'English', description: null, code: 'en' },
  { id: 12002, name: 'Deutsch', description: null, code: 'de' },
];

export const SKIN_TONES: LookupItem[] = [
  { id: 18001, name: 'Light', description: null, code: '#F1C27D' },
  { id: 18002, name: 'Medium', description: null, code: '#E0AC69' },
  { id: 18003, name: 'Tan', description: null, code: '#C68642' },
  { id: 18004, name: 'Dark', description: null, code: '#8D5524' },
];

import type { CurrentUser, LookupItem, RuntimeConfig } from '@portal/contract';

export const USER_ID = '6f1c2a52-0d5e-4b8e-9a47-1b2f6a7c0001';

export function currentUser(overrides: Partial<CurrentUser> = {}): CurrentUser {
  return {
    id: USER_ID,
    email: 'learner@demo.test',
    firstName: 'Lena',
    lastName: 'Learner',
    language: 'en',
    roleName: 'learner',
    organisationId: 1,
    organisationName: 'Demo Hospital',
    isBrightspaceAuthRequired: false,
    brightspaceUserMismatch: false,
    permissions: ['global.access_sims', 'global.view_own_reports'],
    ...overrides,
  };
}

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

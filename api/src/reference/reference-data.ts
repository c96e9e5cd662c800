import { PERMISSIONS, type Permission } from '@portal/contract';
import { ANALYSIS_STATUS, ROLE_CODES, type RoleCode } from '@portal/contract';
import { COUNTRIES } from './countries';

/**
 * Lookup fields answered from the `lookups` table. `organisation`, `roles`, `entitlement` and
 * `product` come from their own tables.
 */
export const STATIC_LOOKUP_FIELDS = [
  'country',
  'learning_management_system',
  'language',
  'radiation_units',
  'measurement_standard',
  'license_duration',
  'skinTone',
  'analysis_status',
] as const;
export type StaticLookupField = (typeof STATIC_LOOKUP_FIELDS)[number];

export interface LookupSeed {
  id: number;
  field: StaticLookupField;
  name: string;
  description: string | null;
  code: string | null;
  sort: number;
}

/** First id of each field's block; ids are `base + position`, so they never change. */
const ID_BASE: Record<StaticLookupField, number> = {
  country: 10000,
  learning_management_system: 11000,
  language: 12000,
  radiation_units: 13000,
  measurement_standard: 14000,
  license_duration: 15000,
  skinTone: 18000,
  analysis_status: 22000,
};

type Entry = [name: string, code: string | null, description?: string];

const ENTRIES: Record<StaticLookupField, Entry[]> = {
  country: COUNTRIES.map(([code, name]) => [name, code]),
  learning_management_system: [
    ['Brightspace', 'brightspace'],
    ['Moodle', 'moodle'],
    ['Canvas', 'canvas'],
    ['Blackboard', 'blackboard'],
    ['None', 'none'],
  ],
  // The code is the i18n language code the front ends switch to.
  language: [
    ['English', 'en'],
    ['Deutsch', 'de'],
  ],
  radiation_units: [
    ['SI', 'si', 'Gray (Gy), Sievert (Sv)'],
    ['Conventional', 'conventional', 'Rad, Rem'],
  ],
  measurement_standard: [
    ['Metric', 'metric'],
    ['Imperial', 'imperial'],
  ],
  // Codes are ISO 8601 durations so a licence's expiry can be computed from its start date.
  license_duration: [
    ['1 year', 'P1Y'],
    ['2 years', 'P2Y'],
    ['3 years', 'P3Y'],
    ['Inactive', 'inactive', 'Licence not started yet'],
  ],
  skinTone: [
    ['Light', '#F1C27D'],
    ['Medium', '#E0AC69'],
    ['Tan', '#C68642'],
    ['Dark', '#8D5524'],
  ],
  analysis_status: [
    ['Not analysed', 'not_analysed'],
    ['Accepted', 'accepted'],
    ['Rejected', 'rejected'],
  ],
};

export const LOOKUP_SEED: readonly LookupSeed[] = STATIC_LOOKUP_FIELDS.flatMap((field) =>
  ENTRIES[field].map(([name, code, description], index) => ({
    id: ID_BASE[field] + index + 1,
    field,
    name,
    code,
    description: description ?? null,
    sort: index + 1,
  })),
);

// docs/requirements.md#analysis fixes these three ids; fail at import rather than seed different ones.
for (const [key, id] of Object.entries(ANALYSIS_STATUS)) {
  if (!LOOKUP_SEED.some((l) => l.field === 'analysis_status' && l.id === id)) {
    throw new Error(`analysis_status lookup ${key} must have id ${id}`);
  }
}

/** `code`: the stable name of the role the `roles` lookup answers (contract ROLE_CODES). */
export const ROLES = [
  { id: 1, name: 'learner', code: ROLE_CODES.learner },
  { id: 2, name: 'educator', code: ROLE_CODES.educator },
  { id: 3, name: 'org admin', code: ROLE_CODES.orgAdmin },
  { id: 4, name: 'sys admin', code: ROLE_CODES.sysAdmin },
] as const;

/** A role's code by its id; null for a role this code base did not seed. */
export const roleCodeOf = (id: number): RoleCode | null =>
  ROLES.find((r) => r.id === id)?.code ?? null;
export type RoleName = (typeof ROLES)[number]['name'];

const LEARNER: Permission[] = [
  'global.access_sims',
  'global.view_own_reports',
  'global.contact_vmc_support',
];
const EDUCATOR: Permission[] = [...LEARNER, 'global.view_org_reports'];
const ORG_ADMIN: Permission[] = [
  ...EDUCATOR,
  'global.client_access_admin_section',
  'global.view_org',
  'global.update_org',
  'global.view_user',
  'global.create_user',
  'global.update_user',
  'global.remove_user',
  'global.view_license_block',
  'global.unassign_license',
  'global.export_user_data',
];

export const ROLE_PERMISSIONS: Record<RoleName, readonly Permission[]> = {
  learner: LEARNER,
  educator: EDUCATOR,
  'org admin': ORG_ADMIN,
  'sys admin': PERMISSIONS,
};

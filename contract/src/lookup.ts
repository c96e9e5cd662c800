import { Type, type Static } from '@sinclair/typebox';
import { MAX_INT4 } from './common';

/** Every `field` of GET /api/v1/lookup docs/requirements.md#calls names. */
export const LOOKUP_FIELDS = [
  'country',
  'learning_management_system',
  'language',
  'radiation_units',
  'measurement_standard',
  'license_duration',
  'entitlement',
  'organisation',
  'organisation_licenses',
  'roles',
  'skinTone',
  'analysis_status',
  'product',
  'practice_view_category',
] as const;
export type LookupField = (typeof LOOKUP_FIELDS)[number];

export const LookupQuery = Type.Object(
  {
    field: Type.Union(LOOKUP_FIELDS.map((f) => Type.Literal(f))),
    organisation: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_INT4 })),
    product_id: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_INT4 })),
  },
  { additionalProperties: false },
);
export type LookupQuery = Static<typeof LookupQuery>;

export const LookupItem = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  description: Type.Union([Type.String(), Type.Null()]),
  code: Type.Union([Type.String(), Type.Null()]),
});
export type LookupItem = Static<typeof LookupItem>;

export const LookupList = Type.Array(LookupItem);
export type LookupList = Static<typeof LookupList>;

/** Analysis status codes (docs/requirements.md#analysis). */
export const ANALYSIS_STATUS = { notAnalysed: 22001, accepted: 22002, rejected: 22003 } as const;

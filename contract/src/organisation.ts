import { Type, type Static } from '@sinclair/typebox';
import { MAX_INT4, PagedQuery } from './common';
import { GradeReleasePolicy } from './marking';

/** Longest text an organisation or licence field may hold (names, contacts, references). */
export const ADMIN_TEXT_MAX_LENGTH = 255;

const LookupId = Type.Integer({ minimum: 1, maximum: MAX_INT4 });
const Text = Type.String({ maxLength: ADMIN_TEXT_MAX_LENGTH });
const NullableText = Type.Union([Text, Type.Null()]);

export const OrganisationIdParams = Type.Object({
  id: Type.Integer({ minimum: 1, maximum: MAX_INT4 }),
});
export type OrganisationIdParams = Static<typeof OrganisationIdParams>;

/**
 * docs/requirements.md#data (Organisation). Lookup fields hold the lookup's id (`GET /api/v1/lookup?field=…`):
 * country → `country`, learningManagementSystem → `learning_management_system`, defaultLanguage →
 * `language`, radiationUnitSystem → `radiation_units`, measurementStandard →
 * `measurement_standard`. The form's `organisationName` is `name` here, in requests, responses
 * and field errors alike.
 */
export const Organisation = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  isActive: Type.Boolean(),
  city: Type.Union([Type.String(), Type.Null()]),
  country: Type.Union([Type.Integer(), Type.Null()]),
  /** Help text in the form: department lead. */
  mainContact: Type.Union([Type.String(), Type.Null()]),
  primaryTechnicalContact: Type.Union([Type.String(), Type.Null()]),
  learningManagementSystem: Type.Union([Type.Integer(), Type.Null()]),
  defaultLanguage: Type.Union([Type.Integer(), Type.Null()]),
  radiationUnitSystem: Type.Union([Type.Integer(), Type.Null()]),
  measurementStandard: Type.Union([Type.Integer(), Type.Null()]),
  /** When its learners' grades go to the learning platform (issue #23); courses may override. */
  gradeRelease: GradeReleasePolicy,
});
export type Organisation = Static<typeof Organisation>;

/**
 * POST /api/v1/organisation and PUT /api/v1/organisation/{id}. Required by docs/requirements.md#validation: name, country,
 * mainContact, learningManagementSystem, defaultLanguage, radiationUnitSystem,
 * measurementStandard. `isActive` defaults to true on create; only global administrators may
 * change it. A blank name or contact answers `{field: ["This field may not be blank."]}`, an id
 * of the wrong lookup `{field: ["Select a valid choice."]}`, a name in use (case-insensitive)
 * `{name: ["An organisation with this name already exists."]}`.
 */
export const OrganisationInput = Type.Object(
  {
    name: Text,
    isActive: Type.Optional(Type.Boolean()),
    city: Type.Optional(NullableText),
    country: LookupId,
    mainContact: Text,
    primaryTechnicalContact: Type.Optional(NullableText),
    learningManagementSystem: LookupId,
    defaultLanguage: LookupId,
    radiationUnitSystem: LookupId,
    measurementStandard: LookupId,
    /** Absent: `automatic` on create, unchanged on update. */
    gradeRelease: Type.Optional(GradeReleasePolicy),
  },
  { additionalProperties: false },
);
export type OrganisationInput = Static<typeof OrganisationInput>;

/** Columns `GET /api/v1/organisation` may be ordered by (default `name`). */
export const ORGANISATION_ORDERING_FIELDS = ['id', 'name', 'isActive', 'city'] as const;
/** `filter` searches name, city, main contact and technical contact. */
export const OrganisationListQuery = PagedQuery;
export type OrganisationListQuery = Static<typeof OrganisationListQuery>;

export const ORGANISATION_MESSAGES = {
  blank: 'This field may not be blank.',
  invalidChoice: 'Select a valid choice.',
  nameTaken: 'An organisation with this name already exists.',
  onlyGlobalAdminActivates:
    'Only global administrators may activate or deactivate an organisation.',
} as const;

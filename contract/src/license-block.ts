import { Type, type Static } from '@sinclair/typebox';
import { MAX_INT4, PagedQuery } from './common';
import { ADMIN_TEXT_MAX_LENGTH } from './organisation';

const Id = Type.Integer({ minimum: 1, maximum: MAX_INT4 });
/** Calendar day `yyyy-MM-dd` on the wire; the forms show dd/MM/yyyy (docs/requirements.md#limits-and-defaults). */
const Day = Type.String({ format: 'date' });

export const LicenseBlockParams = Type.Object({ id: Id, licenseId: Id });
export type LicenseBlockParams = Static<typeof LicenseBlockParams>;

/**
 * docs/requirements.md#data (Licence block). `duration` is a `license_duration` lookup id; `entitlements` are ids of
 * `GET /api/v1/lookup?field=entitlement` (one product in one mode each). `seatsUsed` is kept by the
 * database, which never lets it exceed `numberOfSeats`. `isCurrent`: the licence grants its
 * entitlements today (active, duration not "inactive", today between start and expiry date).
 */
export const LicenseBlock = Type.Object({
  id: Type.Integer(),
  licenseName: Type.String(),
  salesReference: Type.Union([Type.String(), Type.Null()]),
  seatsUsed: Type.Integer(),
  numberOfSeats: Type.Integer(),
  startDate: Type.String({ format: 'date' }),
  expiryDate: Type.String({ format: 'date' }),
  isActive: Type.Boolean(),
  duration: Type.Integer(),
  organisation: Type.Integer(),
  entitlements: Type.Array(Type.Integer()),
  isCurrent: Type.Boolean(),
});
export type LicenseBlock = Static<typeof LicenseBlock>;

/**
 * POST /api/v1/organisation/{id}/license-block, PUT …/license-block/{licenseId}. Required by spec
 * §5: licenseName, duration, startDate, numberOfSeats (≥ 0), at least one entitlement.
 * `expiryDate` left out is computed from the duration (start + duration − 1 day; an "inactive"
 * duration ends on its start day). While the stored licence's duration is "inactive", the start
 * date is read-only (docs/requirements.md#administration): another one answers 400 on `startDate`. Seats below those in use
 * answer 400 on `numberOfSeats`.
 */
export const LicenseBlockInput = Type.Object(
  {
    licenseName: Type.String({ maxLength: ADMIN_TEXT_MAX_LENGTH }),
    salesReference: Type.Optional(
      Type.Union([Type.String({ maxLength: ADMIN_TEXT_MAX_LENGTH }), Type.Null()]),
    ),
    numberOfSeats: Type.Integer({ minimum: 0, maximum: MAX_INT4 }),
    startDate: Day,
    expiryDate: Type.Optional(Type.Union([Day, Type.Null()])),
    isActive: Type.Optional(Type.Boolean()),
    duration: Id,
    entitlements: Type.Array(Id, { minItems: 1, maxItems: 1000 }),
  },
  { additionalProperties: false },
);
export type LicenseBlockInput = Static<typeof LicenseBlockInput>;

/** Columns a licence list may be ordered by (default `licenseName`). `filter`: name, reference. */
export const LICENSE_BLOCK_ORDERING_FIELDS = [
  'id',
  'licenseName',
  'salesReference',
  'numberOfSeats',
  'seatsUsed',
  'startDate',
  'expiryDate',
  'isActive',
] as const;
export const LicenseBlockListQuery = PagedQuery;
export type LicenseBlockListQuery = Static<typeof LicenseBlockListQuery>;

/**
 * docs/requirements.md#data (Licensed user): a user of the organisation, here one holding a seat of the licence.
 * `userRole` is the role id (`roles` lookup), `roleName` its name (translated via userRoles);
 * `licenseNames` all licences of the organisation the user holds; `skinTone` a `skinTone` lookup id.
 */
/**
 * Who a user without e-mail is at the learning platform that created them (issue #22 point 3):
 * `platform` is its issuer's host name, `id` the platform's user id (`sub`). The lists name such a
 * user by name, or as "Learner from {platform}" with the id when the platform sent no name.
 */
export const PlatformUser = Type.Object({ platform: Type.String(), id: Type.String() });
export type PlatformUser = Static<typeof PlatformUser>;

export const LicensedUser = Type.Object({
  id: Type.String(),
  fullName: Type.String(),
  firstName: Type.String(),
  lastName: Type.String(),
  /** null: a user from a learning platform that sent no e-mail. */
  email: Type.Union([Type.String(), Type.Null()]),
  /** Only for a user without e-mail who came from a learning platform. */
  platformUser: Type.Optional(PlatformUser),
  userRole: Type.Integer(),
  roleName: Type.String(),
  licenseNames: Type.Array(Type.String()),
  organisationName: Type.Union([Type.String(), Type.Null()]),
  skinTone: Type.Union([Type.Integer(), Type.Null()]),
});
export type LicensedUser = Static<typeof LicensedUser>;

/** `GET …/license-block/{licenseId}/user` ordering (default `lastName`); `filter`: names, e-mail. */
export const LICENSED_USER_ORDERING_FIELDS = [
  'fullName',
  'firstName',
  'lastName',
  'email',
  'roleName',
  'assignedAt',
] as const;
export const LicensedUserListQuery = PagedQuery;
export type LicensedUserListQuery = Static<typeof LicensedUserListQuery>;

export const LICENSE_BLOCK_MESSAGES = {
  blank: 'This field may not be blank.',
  invalidChoice: 'Select a valid choice.',
  expiryBeforeStart: 'The expiry date must not be before the start date.',
  startDateReadOnly: 'The start date cannot be changed while the licence duration is inactive.',
  dateOutOfRange: 'Enter a date between 01/01/1900 and 31/12/9999.',
  /** `{n}`: the seats in use. */
  seatsBelowUsed: 'Ensure this value is greater than or equal to the seats in use ({n}).',
  /** `{n}`: the seats still free. For a bulk add or an assignment that needs more. */
  notEnoughSeats: 'Not enough seats on this licence: {n} available.',
  inactive: 'This licence is inactive or expired.',
} as const;

import { Type, type Static } from '@sinclair/typebox';
import { MAX_INT4, PagedQuery } from './common';
import { LicensedUser } from './license-block';

const Id = Type.Integer({ minimum: 1, maximum: MAX_INT4 });

/** docs/requirements.md#data (File): what an upload answers. `state` moves uploading → uploaded → saved. */
export const FILE_STATES = ['uploading', 'uploaded', 'saved'] as const;
export const UploadedFile = Type.Object({
  id: Type.String({ format: 'uuid' }),
  originalName: Type.String(),
  size: Type.Integer(),
  state: Type.Union(FILE_STATES.map((s) => Type.Literal(s))),
});
export type UploadedFile = Static<typeof UploadedFile>;

/**
 * Where a user's account stands in the identity provider. `provisioning`: being created and
 * invited; `invited`: the set-password e-mail went out; `failed`: the identity provider keeps
 * refusing (retried, see the API README); `active`: an account that signs in.
 */
export const ACCOUNT_STATUSES = ['active', 'provisioning', 'invited', 'failed'] as const;
export type AccountStatus = (typeof ACCOUNT_STATUSES)[number];

/**
 * A user as administrators see it: docs/requirements.md#data (Licensed user), plus its organisation and account.
 * `pendingEmail`: a new address an administrator asked for that its owner has not confirmed yet
 * (null when none, or once the link expired); `email` stays the old one until then.
 */
export const AdminUser = Type.Composite([
  LicensedUser,
  Type.Object({
    organisation: Type.Union([Type.Integer(), Type.Null()]),
    accountStatus: Type.Union(ACCOUNT_STATUSES.map((s) => Type.Literal(s))),
    pendingEmail: Type.Union([Type.String(), Type.Null()]),
  }),
]);
export type AdminUser = Static<typeof AdminUser>;

/**
 * A repeated resend within this time answers the invitation already on its way instead of
 * sending another e-mail (a double click, two administrators, an impatient retry).
 */
export const INVITATION_RESEND_MINUTES = 10;

/**
 * POST /api/v1/user/{id}/invitation (202): the set-password invitation of an invited user goes
 * out again through the outbox. `queued` false: one queued or sent within the last
 * INVITATION_RESEND_MINUTES answers, from `queuedAt`, and no second e-mail is sent. A user who has
 * signed in (`active`) or whose account is still being set up answers 400.
 */
export const InvitationResult = Type.Object({
  queuedAt: Type.String({ format: 'date-time' }),
  queued: Type.Boolean(),
});
export type InvitationResult = Static<typeof InvitationResult>;

/**
 * The stable `code` of each `roles` lookup entry (GET /api/v1/lookup?field=roles). Front ends
 * recognise a role by its code, never by its name, which is display text and may change.
 */
export const ROLE_CODES = {
  learner: 'learner',
  educator: 'educator',
  orgAdmin: 'org_admin',
  sysAdmin: 'sys_admin',
} as const;
export type RoleCode = (typeof ROLE_CODES)[keyof typeof ROLE_CODES];

export const AdminUserParams = Type.Object({ id: Type.String({ format: 'uuid' }) });
export type AdminUserParams = Static<typeof AdminUserParams>;

/** DELETE /api/v1/user/{id}/license-block/{licenseId}: frees the user's seat on that licence. */
export const UserLicenseParams = Type.Object({
  id: Type.String({ format: 'uuid' }),
  licenseId: Id,
});
export type UserLicenseParams = Static<typeof UserLicenseParams>;

export const USER_NAME_MAX_LENGTH = 150;
export const USER_EMAIL_MAX_LENGTH = 254;

/**
 * PUT /api/v1/user/{id}: names, e-mail and role (`roles` lookup id). Names and role change at
 * once; a different e-mail only becomes `pendingEmail` until its owner confirms it (see
 * api/src/services/email-change/).
 * Only global administrators may give or take the sys admin role, or edit a sys admin at all.
 */
export const AdminUserInput = Type.Object(
  {
    firstName: Type.String({ maxLength: USER_NAME_MAX_LENGTH }),
    lastName: Type.String({ maxLength: USER_NAME_MAX_LENGTH }),
    email: Type.String({ maxLength: USER_EMAIL_MAX_LENGTH }),
    userRole: Id,
  },
  { additionalProperties: false },
);
export type AdminUserInput = Static<typeof AdminUserInput>;

/** `GET /api/v1/organisation/{id}/user` ordering (default `lastName`); `filter`: names, e-mail. */
export const USER_ORDERING_FIELDS = [
  'fullName',
  'firstName',
  'lastName',
  'email',
  'roleName',
  'accountStatus',
] as const;
export const UserListQuery = PagedQuery;
export type UserListQuery = Static<typeof UserListQuery>;

/**
 * The users CSV (docs/requirements.md#file-rules): a header row naming the columns `firstName`, `lastName`, `email` in any
 * order (case-insensitive), UTF-8 with or without BOM, `,` or `;` between fields, quotes as in
 * RFC 4180, at most USER_CSV_MAX_ROWS data rows.
 */
export const USER_CSV_COLUMNS = ['firstName', 'lastName', 'email'] as const;
export type UserCsvColumn = (typeof USER_CSV_COLUMNS)[number];
export const USER_CSV_MAX_ROWS = 10_000;

/**
 * POST /api/v1/user: adds every row of an uploaded users CSV (`file`, state uploaded, uploaded by
 * the caller) to the licence's organisation with `role`, each holding a seat of `license`. All or
 * nothing: one bad row refuses the file and nothing is created.
 */
export const BulkUserInput = Type.Object(
  {
    file: Type.String({ format: 'uuid' }),
    license: Id,
    role: Id,
  },
  { additionalProperties: false },
);
export type BulkUserInput = Static<typeof BulkUserInput>;

export const BulkUserResult = Type.Object({
  count: Type.Integer(),
  users: Type.Array(
    Type.Object({
      id: Type.String(),
      email: Type.String(),
      firstName: Type.String(),
      lastName: Type.String(),
    }),
  ),
});
export type BulkUserResult = Static<typeof BulkUserResult>;

/**
 * One problem of one CSV row. `row` counts records as a spreadsheet shows them: the header is row
 * 1, the first user row 2. `field` is a column (`firstName`, `lastName`, `email`), `row` for a
 * row with more values than columns, or `license` for a row past the licence's free seats.
 */
export const CsvRowError = Type.Object({
  row: Type.Integer(),
  field: Type.String(),
  message: Type.String(),
});
export type CsvRowError = Static<typeof CsvRowError>;

/**
 * 400 of POST /api/v1/user: the usual `{field: [messages]}` (e.g. `file`, `license`, `role`), and
 * `rows` listing every bad row of the file when there are any.
 */
export const BulkUserErrors = Type.Object(
  { rows: Type.Optional(Type.Array(CsvRowError)) },
  { additionalProperties: Type.Array(Type.String()) },
);
export type BulkUserErrors = { rows?: CsvRowError[] } & Record<string, string[] | CsvRowError[]>;

export const USER_ADMIN_MESSAGES = {
  required: 'This field is required.',
  blank: 'This field may not be blank.',
  invalidEmail: 'Enter a valid email address.',
  invalidName: 'Enter a valid name.',
  /** `{n}`: the longest allowed. */
  tooLong: 'Ensure this field has no more than {n} characters.',
  /** `{row}`: the row where the e-mail first appears. */
  duplicateInFile: 'This e-mail address appears more than once in the file (first in row {row}).',
  /** `{n}`: the row's fields, `{m}`: the header's. */
  fieldCount:
    'This row has {n} fields but the header has {m}; quote values that contain the delimiter.',
  emailTaken: 'A user with this e-mail address already exists.',
  /** Invitation of a user from a learning platform that sent no e-mail (issue #22 point 3). */
  noEmailToInvite:
    'This user has no e-mail address to send an invitation to. Add an e-mail address to the user first.',
  invalidChoice: 'Select a valid choice.',
  sysAdminOnly: 'Only global administrators may grant or remove the sys admin role.',
  fileNotUploaded: 'This file has already been used or is not a finished upload.',
  /** `{n}`: rows with problems. */
  rowsRefused: 'The file has {n} rows with errors; no user was added.',
  noRows: 'The file has no user rows.',
  /** `{n}`: USER_CSV_MAX_ROWS. */
  tooManyRows: 'The file has more than {n} user rows.',
  headerMissing: 'The first row must name the columns firstName, lastName and email.',
  /** `{columns}`: the missing ones. */
  columnsMissing: 'Missing column(s): {columns}. The columns are firstName, lastName and email.',
  /** `{columns}`: the unknown ones. */
  columnsUnknown: 'Unknown column(s): {columns}. The columns are firstName, lastName and email.',
  columnRepeated: 'A column is named twice in the header: {columns}.',
  notUtf8: 'The file is not UTF-8 text.',
  /** `{reason}`: the parser's own description, with its line. */
  unreadable: 'The file could not be read as CSV: {reason}',
  deleteSelf: 'You cannot delete your own account.',
  invitationAccepted: 'This user has already signed in, so there is no invitation to send again.',
  invitationPending:
    'The account is still being set up; its invitation goes out as soon as it is ready.',
  lastGlobalAdmin: 'The last global administrator cannot be deleted or lose the role.',
} as const;

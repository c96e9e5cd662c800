import { Type, type Static } from '@sinclair/typebox';

/**
 * Names and Role Provisioning Services 2.0 roster sync (issue #22 point 4): an instructor's launch
 * whose course offers NRPS brings the course's members in as users (seat rules as a launch) and
 * frees the seats of those who left.
 */

const Uuid = Type.String({
  pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$',
});

/** How long after the launch its instructor may still sync the course's roster with it. */
export const LTI_ROSTER_LAUNCH_MAX_AGE_SECONDS = 24 * 3600;

/** Courses seen by a launch this recently are resynced by the daily job. */
export const LTI_ROSTER_DAILY_DAYS = 30;

/** POST /api/v1/lti/roster-sync: the launch whose course to sync. */
export const LtiRosterSyncInput = Type.Object({ launchId: Uuid }, { additionalProperties: false });
export type LtiRosterSyncInput = Static<typeof LtiRosterSyncInput>;

/** 202 of POST /api/v1/lti/roster-sync: the sync to follow (a sync of the course already waiting or running is answered instead of a second). */
export const LtiRosterSyncStarted = Type.Object({ id: Type.String() });
export type LtiRosterSyncStarted = Static<typeof LtiRosterSyncStarted>;

export const LTI_ROSTER_SYNC_STATUSES = ['queued', 'running', 'done', 'failed'] as const;
export type LtiRosterSyncStatus = (typeof LTI_ROSTER_SYNC_STATUSES)[number];

/**
 * Why a member was not brought in, as the launch's user linking gives it: `no_seat` (no licence
 * with a free seat), `no_email` (a new member without an e-mail address), `email_other_organisation`,
 * `linked_user_other_organisation`, `organisation_inactive`.
 */
export const LtiRosterRefusal = Type.Object({ name: Type.String(), reason: Type.String() });
export type LtiRosterRefusal = Static<typeof LtiRosterRefusal>;

export const LtiRosterSyncParams = Type.Object({ id: Uuid });
export type LtiRosterSyncParams = Static<typeof LtiRosterSyncParams>;

/** GET /api/v1/lti/roster-sync/{id}. */
export const LtiRosterSync = Type.Object({
  id: Type.String(),
  status: Type.Union(LTI_ROSTER_SYNC_STATUSES.map((s) => Type.Literal(s))),
  /** New users made from members. */
  added: Type.Integer(),
  /** Members who had left (or been inactive) and are back, with a seat again. */
  reactivated: Type.Integer(),
  /** Members who left or are inactive: seats freed. */
  deactivated: Type.Integer(),
  unchanged: Type.Integer(),
  refused: Type.Array(LtiRosterRefusal),
  /** Why a failed sync failed (step, code, HTTP status); nothing was changed then. */
  error: Type.Optional(Type.String()),
  createdAt: Type.String({ format: 'date-time' }),
  finishedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});
export type LtiRosterSync = Static<typeof LtiRosterSync>;

export const LtiRosterLaunchParams = Type.Object({ launchId: Uuid });
export type LtiRosterLaunchParams = Static<typeof LtiRosterLaunchParams>;

/** GET /api/v1/lti/roster-sync/launch/{launchId}: the launch's course as the roster panel shows it. */
export const LtiRosterSummary = Type.Object({
  courseTitle: Type.Union([Type.String(), Type.Null()]),
  /** Active members with a learner role, as last seen by a sync or a launch. */
  learners: Type.Integer(),
  lastSyncedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  /** The course's latest sync, whoever started it. */
  lastSync: Type.Union([LtiRosterSync, Type.Null()]),
});
export type LtiRosterSummary = Static<typeof LtiRosterSummary>;

export const LTI_ROSTER_MESSAGES = {
  launchExpired:
    'This launch is older than a day. Open the activity from the course again to sync its roster.',
  noRosterService:
    'The course of this launch offers no roster (Names and Role Provisioning Services 2.0).',
  notInstructor: "Only the course's instructors and administrators may sync its roster.",
} as const;

import { Type, type Static } from '@sinclair/typebox';
import { MAX_INT4, PagedQuery } from './common';

/**
 * What was done: an administrator's write (`assign`/`unassign` are seats of a licence, `invite`
 * sends a user's set-password invitation again, `request_email_change`/`cancel_email_change` a new
 * e-mail awaiting its owner's confirmation) or `confirm_email_change` (the new address confirmed;
 * the user is the actor) or `activate`, a user's first sign-in, which
 * turns their invited account active (the user is the actor). `post`/`post_failed`: a grade the
 * learning platform accepted or refused for good (entity `lti_score`, actor System).
 */
export const AUDIT_ACTIONS = [
  'create',
  'update',
  'delete',
  'assign',
  'unassign',
  'activate',
  'invite',
  'request_email_change',
  'confirm_email_change',
  'cancel_email_change',
  'post',
  'post_failed',
  // An educator sent a report's grade to the learning platform (entity `report`; issue #23).
  'release_grade',
  // An educator's comment on a report or one of its images, and a criterion's mark replaced
  // (entity `report`; issue #23 point 3).
  'give_feedback',
  'override_mark',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/**
 * What it was done to. `license_block_user` is a seat (entity id `<licenceId>:<userId>`); a
 * `license_block` update by nobody (actor id null, name `System`) is the daily expiry job.
 */
export const AUDIT_ENTITY_TYPES = [
  'organisation',
  'license_block',
  'license_block_user',
  'user',
  'file',
  'product_configuration',
  'product',
  'simulation_download',
  'lti_platform',
  'lti_score',
  'brightspace_link',
  'lti_tool_key',
  // A course's own grade release (entity id: lti_courses.id); issue #23 point 2.
  'lti_course',
  // A learner's report (entity id: the session's uuid); issue #23.
  'report',
] as const;
export type AuditEntityType = (typeof AUDIT_ENTITY_TYPES)[number];

/**
 * One admin write (docs/decisions.md#audit-log): who (`actor…`, kept when the user is deleted), what (`action`,
 * `entityType`, `entityId`), where (`organisation`), when (`at`), and the object before and after
 * (null before a create and after a delete).
 */
export const AuditEntry = Type.Object({
  id: Type.Integer(),
  at: Type.String({ format: 'date-time' }),
  actorId: Type.Union([Type.String(), Type.Null()]),
  actorName: Type.String(),
  actorEmail: Type.String(),
  action: Type.Union(AUDIT_ACTIONS.map((a) => Type.Literal(a))),
  entityType: Type.Union(AUDIT_ENTITY_TYPES.map((e) => Type.Literal(e))),
  entityId: Type.String(),
  organisation: Type.Union([Type.Integer(), Type.Null()]),
  organisationName: Type.Union([Type.String(), Type.Null()]),
  before: Type.Unknown(),
  after: Type.Unknown(),
});
export type AuditEntry = Static<typeof AuditEntry>;

/** Columns the audit log may be ordered by (default `-at`). */
export const AUDIT_ORDERING_FIELDS = ['at', 'action', 'entityType', 'actorName'] as const;

/**
 * GET /api/v1/audit: global administrators read every entry (`organisation` narrows it); an
 * organisation administrator reads only their own organisation's (other ids answer 404).
 * `filter` searches actor name and e-mail, action, entity type and id.
 */
export const AuditListQuery = Type.Composite(
  [
    PagedQuery,
    Type.Object({
      organisation: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_INT4 })),
      entityType: Type.Optional(Type.Union(AUDIT_ENTITY_TYPES.map((e) => Type.Literal(e)))),
    }),
  ],
  { additionalProperties: false },
);
export type AuditListQuery = Static<typeof AuditListQuery>;

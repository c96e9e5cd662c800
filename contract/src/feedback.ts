import { Type, type Static } from '@sinclair/typebox';
import { MAX_INT4 } from './common';
import { MARKING_CRITERIA } from './marking';

/**
 * Educator feedback on a learner's report (issue #23 point 3): a comment per image and on the
 * whole report, and overrides of single criterion marks with a reason. Only an educator of the
 * learner's organisation (view_org_reports there) or a global administrator gives it; the learner
 * reads it in the report and is notified.
 */
export const FEEDBACK_COMMENT_MAX_LENGTH = 4000;
export const OVERRIDE_REASON_MAX_LENGTH = 500;

const strict = { additionalProperties: false } as const;
const DateTime = Type.String({ format: 'date-time' });
const Criterion = Type.Union(MARKING_CRITERIA.map((c) => Type.Literal(c)));

/** An empty (or blank) comment clears the one stored. */
const Comment = Type.String({ maxLength: FEEDBACK_COMMENT_MAX_LENGTH });

/** PUT /api/v1/report/{reportId}/evidence/{evidenceId}/feedback */
export const EvidenceFeedbackBody = Type.Object({ comment: Comment }, strict);
export type EvidenceFeedbackBody = Static<typeof EvidenceFeedbackBody>;

/**
 * One override: `evidenceId`'s `criterion` gets `mark` (0 to the criterion's max) for `reason`.
 * A mark equal to the one the API's marking gave removes the override. Criteria the body does not
 * name keep what they have.
 */
export const MarkOverrideInput = Type.Object(
  {
    evidenceId: Type.Integer({ minimum: 1, maximum: MAX_INT4 }),
    criterion: Criterion,
    mark: Type.Number({ minimum: 0, maximum: 100 }),
    reason: Type.String({ minLength: 1, maxLength: OVERRIDE_REASON_MAX_LENGTH }),
  },
  strict,
);
export type MarkOverrideInput = Static<typeof MarkOverrideInput>;

/**
 * PUT /api/v1/report/{reportId}/feedback: the report's comment (absent: left as it is) and any
 * overrides.
 */
export const ReportFeedbackBody = Type.Object(
  {
    comment: Type.Optional(Comment),
    overrides: Type.Optional(Type.Array(MarkOverrideInput, { maxItems: 100 })),
  },
  strict,
);
export type ReportFeedbackBody = Static<typeof ReportFeedbackBody>;

/** A comment as the report shows it. */
export const FeedbackComment = Type.Object({
  comment: Type.String(),
  authorName: Type.String(),
  updatedAt: DateTime,
});
export type FeedbackComment = Static<typeof FeedbackComment>;

/** A criterion whose mark an educator replaced; the image's marks carry the new mark. */
export const MarkOverride = Type.Object({
  criterion: Criterion,
  /** What the API's marking gave; null: it was not assessed. */
  originalMark: Type.Union([Type.Number(), Type.Null()]),
  mark: Type.Number(),
  reason: Type.String(),
  authorName: Type.String(),
  updatedAt: DateTime,
});
export type MarkOverride = Static<typeof MarkOverride>;

/** Notifications of the signed-in user (GET /api/v1/notification/mine). */
export const USER_NOTIFICATION_KINDS = ['report_feedback'] as const;
export const UserNotification = Type.Object({
  id: Type.Integer(),
  kind: Type.Union(USER_NOTIFICATION_KINDS.map((k) => Type.Literal(k))),
  /** The report (session uuid) and its name, e.g. "Knee". */
  reportId: Type.String(),
  reportName: Type.String(),
  createdAt: DateTime,
  read: Type.Boolean(),
});
export type UserNotification = Static<typeof UserNotification>;
export const UserNotificationList = Type.Array(UserNotification);

/** POST /api/v1/notification/mine/{notificationId}/read */
export const UserNotificationParams = Type.Object({
  notificationId: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }),
});
export type UserNotificationParams = Static<typeof UserNotificationParams>;

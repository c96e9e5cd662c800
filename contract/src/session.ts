import { Type, type Static } from '@sinclair/typebox';
import { MAX_INT4 } from './common';
import { SimulationMode } from './product';

export const SESSION_STATUSES = ['not_started', 'in_progress', 'complete', 'closed'] as const;
export type SessionStatusValue = (typeof SESSION_STATUSES)[number];
export const SessionStatusValue = Type.Union(SESSION_STATUSES.map((s) => Type.Literal(s)));

/** POST /api/v1/product/{productId}/session */
export const CreateSessionBody = Type.Object(
  {
    configuration: Type.String({ minLength: 1, maxLength: 255 }),
    ltiLaunchId: Type.Optional(
      Type.Union([Type.String({ minLength: 1, maxLength: 255 }), Type.Null()]),
    ),
    mode: SimulationMode,
    /** The leaf category launched; gives the report its description. */
    categoryId: Type.Optional(
      Type.Union([Type.Integer({ minimum: 1, maximum: MAX_INT4 }), Type.Null()]),
    ),
  },
  { additionalProperties: false },
);
export type CreateSessionBody = Static<typeof CreateSessionBody>;

/** The token is shown once; only the simulator should ever hold it. */
export const CreatedSession = Type.Object({
  token: Type.String(),
  uuid: Type.String({ format: 'uuid' }),
});
export type CreatedSession = Static<typeof CreatedSession>;

export const SessionParams = Type.Object({
  productId: Type.Integer({ minimum: 1, maximum: MAX_INT4 }),
  uuid: Type.String({ format: 'uuid' }),
});
export type SessionParams = Static<typeof SessionParams>;

export const SessionStatus = Type.Object({ uuid: Type.String(), status: SessionStatusValue });
export type SessionStatus = Static<typeof SessionStatus>;

/** POST …/session/{uuid}/close (no payload). */
export const CloseSessionResult = Type.Object({
  hasReportDetails: Type.Boolean(),
  hasSubmittedEvidence: Type.Boolean(),
  status: SessionStatusValue,
});
export type CloseSessionResult = Static<typeof CloseSessionResult>;

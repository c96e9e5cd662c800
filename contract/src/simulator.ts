import { Type, type Static } from '@sinclair/typebox';
import { EvidenceData } from './evidence';
import { SimulationMode } from './product';
import { SessionStatusValue } from './session';

/**
 * Calls the simulator makes. They authenticate with `Authorization: Session <token>` (the token
 * from session creation), not with a user's JWT, and are accepted only while that session is open.
 */
export const SESSION_TOKEN_SCHEME = 'Session';
/** Evidence images: PNG or JPEG, at most 10 MB. */
export const EVIDENCE_IMAGE_TYPES = ['image/png', 'image/jpeg'] as const;

/** POST /api/v1/simulator/session/join: status → in_progress; answers what to simulate. */
export const SimulatorSession = Type.Object({
  uuid: Type.String(),
  status: SessionStatusValue,
  mode: SimulationMode,
  configuration: Type.String(),
  product: Type.Object({ id: Type.Integer(), code: Type.String(), name: Type.String() }),
  /** Display name of the launched leaf category (body area), null if launched without one. */
  categoryName: Type.Union([Type.String(), Type.Null()]),
  learner: Type.Object({ firstName: Type.String(), lastName: Type.String() }),
  /** Evidence already submitted (a simulator that restarts continues the count). */
  evidenceCount: Type.Integer(),
});
export type SimulatorSession = Static<typeof SimulatorSession>;

/**
 * POST /api/v1/simulator/session/evidence, multipart: field `data` = JSON of this, field `image`
 * = the PNG/JPEG (optional for lesson parts). Answers 201 {id}.
 */
export const EvidenceSubmission = Type.Object(
  {
    practiceActivity: Type.String({ minLength: 1, maxLength: 255 }),
    evidenceData: EvidenceData,
  },
  { additionalProperties: false },
);
export type EvidenceSubmission = Static<typeof EvidenceSubmission>;
export const CreatedEvidence = Type.Object({ id: Type.Integer() });
export type CreatedEvidence = Static<typeof CreatedEvidence>;

/** POST /api/v1/simulator/session/complete: status → complete; optional report details. */
export const CompleteSessionBody = Type.Object(
  {
    reportDetails: Type.Optional(
      Type.Union([
        Type.Object(
          {
            summary: Type.String({ maxLength: 2000 }),
            score: Type.Optional(Type.Integer({ minimum: 0, maximum: 100 })),
            durationSeconds: Type.Optional(Type.Integer({ minimum: 0, maximum: 86400 })),
          },
          { additionalProperties: false },
        ),
        Type.Null(),
      ]),
    ),
  },
  { additionalProperties: false },
);
export type CompleteSessionBody = Static<typeof CompleteSessionBody>;

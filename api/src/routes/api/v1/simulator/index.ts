import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  CompleteSessionBody,
  CreatedEvidence,
  Detail,
  EVIDENCE_IMAGE_TYPES,
  EvidenceSubmission,
  FieldErrors,
  NON_FIELD_ERRORS,
  SessionStatus,
  SimulatorSession,
  type SessionStatusValue,
} from '@portal/contract';
import { ApiError, badRequest, detailError, fieldError } from '../../../../lib/http-errors';
import { errorResponses } from '../../../../lib/route-schemas';
import { typeboxFieldErrors } from '../../../../lib/typebox-errors';
import {
  extensionOf,
  FILE_EMPTY,
  FILE_TOO_LARGE,
  fileNameError,
  fileTypeInvalid,
  formatBytes,
  IMAGE_EXTENSIONS,
  sniffImageType,
  type ImageType,
} from '../../../../lib/upload-rules';
import { currentSession, SESSION_NOT_OPEN } from '../../../../plugins/app/session-token';
import {
  completeSessionBySimulator,
  joinSession,
} from '../../../../services/sessions/session-changes';
import { submitEvidence } from '../../../../services/sessions/submit-evidence';
import { readEvidenceForm, type UploadedImage } from './evidence-form';

const tags = ['simulator'];
/** The simulator authenticates with its session token, a header no browser sends by itself. */
const config = { sessionToken: true, xsrf: false } as const;
const responses = { ...errorResponses, 409: Detail } as const;

export const JOIN_FIRST = 'Join the session first.';
const evidenceLimit = (max: number) => `A session holds at most ${max} evidence.`;
export const storageQuotaReached = (maxBytes: number) =>
  `Your stored files have reached your quota of ${formatBytes(maxBytes)}. Delete reports you no longer need, or ask your administrator.`;
const IMAGE_EXTENSION_LIST = Object.values(IMAGE_EXTENSIONS).flat();

/** 409 for a call the session's state does not allow (null: it vanished meanwhile). */
function notOpen(status: SessionStatusValue | null) {
  return detailError(409, status === 'not_started' ? JOIN_FIRST : SESSION_NOT_OPEN);
}

/** The image's problem, or its type when the name, size, declared type and bytes all agree. */
function checkImage(image: UploadedImage): { error: string } | { type: ImageType } {
  const nameError = fileNameError(image.fileName, IMAGE_EXTENSION_LIST);
  if (nameError) return { error: nameError };
  if (image.tooLarge) return { error: FILE_TOO_LARGE };
  if (image.data.length === 0) return { error: FILE_EMPTY };
  const sniffed = sniffImageType(image.data);
  if (
    sniffed === null ||
    sniffed !== image.declaredType ||
    !IMAGE_EXTENSIONS[sniffed].includes(extensionOf(image.fileName))
  ) {
    return { error: fileTypeInvalid(EVIDENCE_IMAGE_TYPES) };
  }
  return { type: sniffed };
}

function parseData(data: unknown): { value: unknown } | { error: string } {
  if (data === undefined) return { error: 'This field is required.' };
  if (typeof data !== 'string') return { value: data };
  try {
    return { value: JSON.parse(data) };
  } catch {
    return { error: 'Invalid JSON.' };
  }
}

/** The calls the simulator makes during a session (contract: simulator.ts). */
const simulatorRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { evidence } = app.repos;
  const { maxEvidencePerSession, maxStoredBytesPerUser } = app.config;
  const limits = { maxPerSession: maxEvidencePerSession, maxStoredBytes: maxStoredBytesPerUser };
  const quotaError = () =>
    new ApiError(413, { image: [storageQuotaReached(maxStoredBytesPerUser)] });
  // Only evidence uploads are multipart; registered here so no other route accepts forms.
  await app.register(multipart, { throwFileSizeLimit: false });

  app.post(
    '/session/join',
    {
      config,
      schema: {
        tags,
        summary: 'Start (or resume) the session; answers what to simulate',
        response: { 200: SimulatorSession, ...responses },
      },
    },
    async (request) => {
      const result = await joinSession(app, currentSession(request).uuid);
      if (!result.ok) throw notOpen(result.status);
      return result.value;
    },
  );

  app.post(
    '/session/evidence',
    {
      config,
      schema: {
        tags,
        summary: 'Submit one captured image or lesson part (multipart: data, image)',
        description:
          'Field `data`: JSON of EvidenceSubmission. Field `image`: PNG or JPEG of at most 10 MB, ' +
          'required for `xray_image`, optional for `rs_lesson_part`. Only while the session is in progress.',
        consumes: ['multipart/form-data'],
        response: { 201: CreatedEvidence, ...responses, 413: FieldErrors },
      },
    },
    async (request, reply) => {
      const session = currentSession(request);
      if (session.status !== 'in_progress') throw notOpen(session.status);
      if (!request.isMultipart()) {
        throw fieldError(
          NON_FIELD_ERRORS,
          'Send multipart/form-data with the fields data and image.',
        );
      }

      const form = await readEvidenceForm(request);
      // Refused whatever else is wrong: the client must not retry the same bytes.
      if (form.tooLarge) throw new ApiError(413, { ...form.errors, image: [FILE_TOO_LARGE] });
      const errors: FieldErrors = { ...form.errors };
      let submission: EvidenceSubmission | null = null;
      if (!errors.data) {
        const parsed = parseData(form.data);
        if ('error' in parsed) errors.data = [parsed.error];
        else {
          const invalid = typeboxFieldErrors(EvidenceSubmission, parsed.value);
          if (Object.keys(invalid).length > 0) Object.assign(errors, invalid);
          else submission = parsed.value as EvidenceSubmission;
        }
      }
      let imageType: ImageType | null = null;
      if (form.image && !errors.image) {
        const checked = checkImage(form.image);
        if ('error' in checked) errors.image = [checked.error];
        else imageType = checked.type;
      }
      if (submission) {
        const { meta, lesson } = submission.evidenceData;
        if (meta.type === 'xray_image' && !form.image && !errors.image) {
          errors.image = ['An X-ray image needs its image.'];
        }
        if (meta.type === 'rs_lesson_part' && !lesson) {
          errors['evidenceData.lesson'] = ['This field is required.'];
        }
      }
      if (Object.keys(errors).length > 0 || !submission) throw badRequest(errors);
      // Cheap checks before the bytes are written; add() checks both again under a lock.
      const usage = await evidence.usage(session.uuid, session.userId);
      if (usage.count >= maxEvidencePerSession) {
        throw fieldError(NON_FIELD_ERRORS, evidenceLimit(maxEvidencePerSession));
      }
      if (form.image && usage.bytes + form.image.data.length > maxStoredBytesPerUser) {
        throw quotaError();
      }

      const image =
        form.image && imageType
          ? { fileName: form.image.fileName, type: imageType, data: form.image.data }
          : null;
      const result = await submitEvidence(
        app,
        { sessionUuid: session.uuid, userId: session.userId, submission },
        image,
        limits,
      );
      if (!result.ok) {
        if (result.reason === 'limit') {
          throw fieldError(NON_FIELD_ERRORS, evidenceLimit(maxEvidencePerSession));
        }
        if (result.reason === 'storage_quota') throw quotaError();
        throw notOpen(result.status);
      }
      return reply.code(201).send({ id: result.id });
    },
  );

  app.post(
    '/session/complete',
    {
      config,
      schema: {
        tags,
        summary: 'Finish the session, optionally with report details',
        body: CompleteSessionBody,
        response: { 200: SessionStatus, ...responses },
      },
    },
    async (request) => {
      const session = currentSession(request);
      if (session.status !== 'in_progress') throw notOpen(session.status);
      const result = await completeSessionBySimulator(
        app,
        session.uuid,
        request.body.reportDetails,
      );
      if (!result.ok) throw notOpen(result.status);
      return result.value;
    },
  );
};

export default simulatorRoutes;

import { randomUUID } from 'node:crypto';
import { Transform, type Readable } from 'node:stream';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  FIELD_MESSAGE_TEMPLATES,
  FieldErrors,
  INSTALLER_EXTENSIONS,
  NON_FIELD_ERRORS,
  PERMISSION_DENIED,
  UploadedFile,
  formatFieldMessage,
} from '@portal/contract';
import { ApiError, badRequest, fieldError, forbidden } from '../../../../lib/http-errors';
import { isGlobalAdmin } from '../../../../lib/object-access';
import { errorResponses } from '../../../../lib/route-schemas';
import {
  extensionOf,
  FILE_EMPTY,
  fileNameError,
  fileTypeInvalid,
  formatBytes,
  ONE_FILE_ONLY,
} from '../../../../lib/upload-rules';
import { currentUser } from '../../../../plugins/app/auth';
import {
  installerUploadDiscarded,
  installerUploaded,
  installerUploadStarted,
} from '../../../../services/files/installer-uploaded';

type InstallerExtension = (typeof INSTALLER_EXTENSIONS)[number];

/**
 * What each installer kind is served as, and how its bytes announce it: the declared type of an
 * upload is whatever the browser guessed (often application/octet-stream), so the bytes decide.
 * A disk image has no leading signature; UDIF ends in a 512-byte trailer starting with "koly".
 */
const INSTALLER_TYPES: Readonly<
  Record<InstallerExtension, { mime: string; head?: Buffer[]; trailer?: Buffer }>
> = {
  exe: { mime: 'application/vnd.microsoft.portable-executable', head: [Buffer.from('MZ')] },
  msi: {
    mime: 'application/x-msi',
    head: [Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])],
  },
  zip: {
    mime: 'application/zip',
    head: [Buffer.from('PK\x03\x04', 'latin1'), Buffer.from('PK\x05\x06', 'latin1')],
  },
  pkg: { mime: 'application/x-xar', head: [Buffer.from('xar!')] },
  dmg: { mime: 'application/x-apple-diskimage', trailer: Buffer.from('koly') },
};
const DMG_TRAILER_BYTES = 512;

const NO_FILE = 'No file was submitted.';
const MALFORMED_FORM = 'The multipart form could not be read.';
const MULTIPART_ERRORS: Readonly<Record<string, [field: string, message: string]>> = {
  FST_FILES_LIMIT: ['file', ONE_FILE_ONLY],
  FST_PARTS_LIMIT: [NON_FIELD_ERRORS, 'Too many form fields.'],
  FST_FIELDS_LIMIT: [NON_FIELD_ERRORS, 'Too many form fields.'],
  FST_PROTO_VIOLATION: [NON_FIELD_ERRORS, 'Invalid form field name.'],
};

/** Why a streamed installer was refused; thrown into the stream so the store keeps nothing. */
class InstallerRefused extends Error {
  constructor(
    readonly status: 400 | 413,
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

export const installerTooLarge = (maxBytes: number) =>
  formatFieldMessage(FIELD_MESSAGE_TEMPLATES.fileTooLarge, {
    size: formatBytes(maxBytes).replace(' ', ''),
  });

/**
 * Passes the bytes on while counting them and checking the kind's signature; errors (and so
 * fails the store's write) past `maxBytes`, on an empty file or on bytes of another kind.
 */
function installerGuard(extension: InstallerExtension, maxBytes: number) {
  const type = INSTALLER_TYPES[extension];
  const headLength = Math.max(0, ...(type.head ?? []).map((h) => h.length));
  let bytes = 0;
  let head = Buffer.alloc(0);
  let tail = Buffer.alloc(0);
  const wrongType = () =>
    new InstallerRefused(400, 'file', fileTypeInvalid(INSTALLER_EXTENSIONS.map((e) => `.${e}`)));
  const headOk = () => (type.head ?? []).some((h) => head.subarray(0, h.length).equals(h));
  const guard = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      if (bytes > maxBytes)
        return done(new InstallerRefused(413, 'file', installerTooLarge(maxBytes)));
      if (head.length < headLength) {
        head = Buffer.concat([head, chunk.subarray(0, headLength - head.length)]);
        if (head.length >= headLength && !headOk()) return done(wrongType());
      }
      if (type.trailer) {
        tail = Buffer.concat([tail, chunk]);
        if (tail.length > DMG_TRAILER_BYTES) tail = tail.subarray(tail.length - DMG_TRAILER_BYTES);
      }
      done(null, chunk);
    },
    flush(done) {
      if (bytes === 0) return done(new InstallerRefused(400, 'file', FILE_EMPTY));
      if (head.length < headLength && !headOk()) return done(wrongType());
      if (
        type.trailer &&
        (tail.length < DMG_TRAILER_BYTES ||
          !tail.subarray(0, type.trailer.length).equals(type.trailer))
      ) {
        return done(wrongType());
      }
      done();
    },
  });
  return { guard, bytes: () => bytes };
}

async function drain(stream: Readable): Promise<void> {
  for await (const chunk of stream) void chunk;
}

/**
 * POST /api/v1/file/upload/sim-installation-file: an installer of up to INSTALLER_MAX_BYTES,
 * piped from the request to the store as it arrives (nothing is buffered but the parts in
 * flight), and judged while it passes: over the limit is a 413, bytes of another kind a 400, and
 * either way the store keeps nothing and no file row remains.
 */
export const installerUploadRoutes: FastifyPluginAsyncTypebox = async (app) => {
  await app.register(multipart, { throwFileSizeLimit: false });
  const maxBytes = app.config.installerMaxBytes;

  app.post(
    '/upload/sim-installation-file',
    {
      // docs/requirements.md#permissions: downloads use the user permissions; installers serve every organisation, so
      // only global administrators add them (checked before the body is read).
      config: { permissions: ['global.create_user', 'global.update_user'] },
      preValidation: async (request) => {
        if (!isGlobalAdmin(currentUser(request))) throw forbidden(PERMISSION_DENIED);
      },
      schema: {
        tags: ['file'],
        summary: 'Upload a simulation installer (multipart: file), streamed to storage',
        description:
          `docs/requirements.md#file-rules; extensions ${INSTALLER_EXTENSIONS.join(', ')}, checked against ` +
          'the bytes; up to 2 GB (INSTALLER_MAX_BYTES; 413 beyond). State `uploaded` until a ' +
          'simulation download that uses it is saved.',
        consumes: ['multipart/form-data'],
        response: { 201: UploadedFile, ...errorResponses, 413: FieldErrors },
      },
    },
    async (request, reply) => {
      const actor = currentUser(request);
      if (!request.isMultipart()) {
        throw fieldError(NON_FIELD_ERRORS, 'Send multipart/form-data with the field file.');
      }
      const errors: FieldErrors = {};
      let stored: { id: string; key: string; name: string; size: number } | null = null;
      let refused: InstallerRefused | null = null;

      const discard = async () => {
        if (!stored) return;
        const { id, key } = stored;
        stored = null;
        await app.storage.remove(key).catch(() => undefined);
        await installerUploadDiscarded(app, id);
      };

      try {
        const parts = request.parts({
          preservePath: true,
          // One byte over the limit reaches the guard, which refuses it.
          limits: { fileSize: maxBytes + 1, files: 1, fields: 4, parts: 5, fieldSize: 1024 },
        });
        for await (const part of parts) {
          if (part.type !== 'file') continue;
          if (part.fieldname !== 'file') {
            await drain(part.file);
            errors.file = [NO_FILE];
            continue;
          }
          const name = part.filename ?? '';
          const problem = fileNameError(name, INSTALLER_EXTENSIONS);
          if (problem) {
            await drain(part.file);
            errors.file = [problem];
            continue;
          }
          const extension = extensionOf(name) as InstallerExtension;
          const id = randomUUID();
          const key = `sim-installation-file/${id}.${extension}`;
          await installerUploadStarted(app, {
            id,
            kind: 'sim-installation-file',
            originalName: name,
            mimeType: INSTALLER_TYPES[extension].mime,
            size: 0,
            storageKey: key,
            ownerId: actor.id,
          });
          stored = { id, key, name, size: 0 };
          const { guard, bytes } = installerGuard(extension, maxBytes);
          // The guard may refuse the first chunk before the store has attached to it; the store
          // still sees the refusal (the stream is left errored), so this only keeps it from
          // being an uncaught 'error' event.
          guard.on('error', () => undefined);
          // pipe(), not pipeline(): a refusal must not destroy the request's part stream, whose
          // rest is read (and dropped) below so the form can still be answered.
          part.file.pipe(guard);
          part.file.once('error', (error) => guard.destroy(error));
          try {
            await app.storage.putStream(key, guard, INSTALLER_TYPES[extension].mime);
            stored.size = bytes();
          } catch (error) {
            part.file.unpipe(guard);
            await drain(part.file);
            if (!(error instanceof InstallerRefused)) throw error;
            refused = error;
          }
        }
      } catch (error) {
        const known = MULTIPART_ERRORS[(error as { code?: string }).code ?? ''];
        if (known) errors[known[0]] = [known[1]];
        // busboy reports a body it cannot read (no boundary, cut off) as a plain Error.
        else if (error instanceof Error && error.constructor === Error && !('code' in error)) {
          errors[NON_FIELD_ERRORS] = [MALFORMED_FORM];
        } else {
          await discard();
          throw error;
        }
      }

      if (refused) {
        await discard();
        throw new ApiError(refused.status, { ...errors, [refused.field]: [refused.message] });
      }
      if (Object.keys(errors).length > 0) {
        await discard();
        throw badRequest(errors);
      }
      const file = stored as { id: string; key: string; name: string; size: number } | null;
      if (!file) throw fieldError('file', NO_FILE);
      try {
        await installerUploaded(app, file, actor);
      } catch (error) {
        await discard();
        throw error;
      }
      return reply
        .code(201)
        .send({ id: file.id, originalName: file.name, size: file.size, state: 'uploaded' });
    },
  );
};

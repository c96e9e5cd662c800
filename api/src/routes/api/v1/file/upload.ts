import { randomUUID } from 'node:crypto';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { FieldErrors, NON_FIELD_ERRORS, UploadedFile } from '@portal/contract';
import { decodeUtf8, parseUsersCsv } from '../../../../lib/csv/users-csv';
import { ApiError, badRequest, fieldError } from '../../../../lib/http-errors';
import { errorResponses } from '../../../../lib/route-schemas';
import {
  FILE_EMPTY,
  FILE_TOO_LARGE,
  fileNameError,
  fileTypeInvalid,
  MAX_UPLOAD_BYTES,
  ONE_FILE_ONLY,
} from '../../../../lib/upload-rules';
import { currentUser } from '../../../../plugins/app/auth';
import { storeUpload } from '../../../../services/files/store-upload';

/** docs/requirements.md#file-rules: the users upload must be CSV. */
export const USER_FILE_EXTENSIONS = ['csv'] as const;
/**
 * What browsers and spreadsheet programs declare for a .csv: Windows with Excel installed says
 * application/vnd.ms-excel, some systems text/plain or nothing specific.
 */
export const USER_FILE_TYPES = [
  'text/csv',
  'application/csv',
  'text/x-csv',
  'application/x-csv',
  'application/vnd.ms-excel',
  'text/plain',
  'application/octet-stream',
] as const;

export const NO_FILE = 'No file was submitted.';
const MALFORMED_FORM = 'The multipart form could not be read.';

interface FileForm {
  file: { fileName: string; declaredType: string; data: Buffer } | null;
  tooLarge: boolean;
  errors: FieldErrors;
}

const MULTIPART_ERRORS: Readonly<Record<string, [field: string, message: string]>> = {
  FST_FILES_LIMIT: ['file', ONE_FILE_ONLY],
  FST_PARTS_LIMIT: [NON_FIELD_ERRORS, 'Too many form fields.'],
  FST_FIELDS_LIMIT: [NON_FIELD_ERRORS, 'Too many form fields.'],
  FST_PROTO_VIOLATION: [NON_FIELD_ERRORS, 'Invalid form field name.'],
};

async function drain(stream: AsyncIterable<unknown>): Promise<void> {
  for await (const chunk of stream) void chunk;
}

/**
 * The form's one file (field `file`), read whole (at most 10 MB: the parser cuts it off while
 * streaming) so that it is judged before anything is stored. Other fields are ignored.
 */
export async function readFileForm(request: FastifyRequest): Promise<FileForm> {
  const form: FileForm = { file: null, tooLarge: false, errors: {} };
  try {
    const parts = request.parts({
      // The name as sent: stripped of its path ('../x.csv' → 'x.csv') it would pass the rules.
      preservePath: true,
      limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 4, parts: 5, fieldSize: 1024 },
    });
    for await (const part of parts) {
      if (part.type !== 'file') continue;
      if (part.fieldname !== 'file') {
        await drain(part.file);
        form.errors.file = [NO_FILE];
        continue;
      }
      const data = await part.toBuffer();
      form.file = { fileName: part.filename ?? '', declaredType: part.mimetype, data };
      if (part.file.truncated) form.tooLarge = true;
    }
  } catch (error) {
    const known = MULTIPART_ERRORS[(error as { code?: string }).code ?? ''];
    if (known) form.errors[known[0]] = [known[1]];
    // busboy reports a body it cannot read (no boundary, cut off) as a plain Error: the
    // request's fault, a 400.
    else if (error instanceof Error && error.constructor === Error && !('code' in error)) {
      form.errors[NON_FIELD_ERRORS] = [MALFORMED_FORM];
    } else throw error;
  }
  return form;
}

/**
 * What every administrator's file upload checks first (docs/requirements.md#file-rules): a multipart form, one file under
 * `file`, within the size limit, named with one of `extensions`. Throws the 400/413 with the field
 * and reason; each route then judges the content.
 */
export async function readUploadedFile(
  request: FastifyRequest,
  extensions: readonly string[],
): Promise<NonNullable<FileForm['file']>> {
  if (!request.isMultipart()) {
    throw fieldError(NON_FIELD_ERRORS, 'Send multipart/form-data with the field file.');
  }
  const form = await readFileForm(request);
  if (form.tooLarge) throw new ApiError(413, { ...form.errors, file: [FILE_TOO_LARGE] });
  if (Object.keys(form.errors).length > 0) throw badRequest(form.errors);
  const file = form.file;
  if (!file) throw fieldError('file', NO_FILE);
  const nameProblem = fileNameError(file.fileName, extensions);
  if (nameProblem) throw fieldError('file', nameProblem);
  return file;
}

/** Text that a browser would sniff as a page if it were ever served as one. */
const looksLikeMarkup = (text: string) => /^\s*</.test(text);

/** The uploads of administrators' forms: POST /api/v1/file/upload/{kind}. */
export const fileUploadRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // Only this scope accepts forms; every other file route stays JSON.
  await app.register(multipart, { throwFileSizeLimit: false });

  app.post(
    '/upload/user',
    {
      config: { permissions: ['global.create_user'] },
      schema: {
        tags: ['file'],
        summary: 'Upload a users CSV for the bulk add (multipart: file)',
        description:
          'docs/requirements.md#file-rules, then: UTF-8 text with the header firstName, lastName, email (any ' +
          'order, `,` or `;`) and at most 10 000 rows. The file is `uploaded` until the bulk ' +
          'add that uses it succeeds (then `saved`).',
        consumes: ['multipart/form-data'],
        response: { 201: UploadedFile, ...errorResponses, 413: FieldErrors },
      },
    },
    async (request, reply) => {
      const actor = currentUser(request);
      const file = await readUploadedFile(request, USER_FILE_EXTENSIONS);
      const declared = file.declaredType.split(';')[0]?.trim().toLowerCase() ?? '';
      const text = decodeUtf8(file.data);
      // The declared type alone is no evidence: the bytes must be text, and not markup.
      if (
        !(USER_FILE_TYPES as readonly string[]).includes(declared) ||
        text === null ||
        looksLikeMarkup(text)
      ) {
        throw fieldError('file', fileTypeInvalid(['text/csv']));
      }
      if (file.data.length === 0) throw fieldError('file', FILE_EMPTY);
      // The rows are checked again, with the licence and the database, by the bulk add; the
      // file's shape is known now, so the form can say so at once.
      const parsed = parseUsersCsv(file.data);
      if (!parsed.ok) throw badRequest({ file: parsed.fileErrors });

      const id = randomUUID();
      const stored = {
        id,
        kind: 'user' as const,
        originalName: file.fileName,
        mimeType: 'text/csv',
        size: file.data.length,
        storageKey: `user/${id}.csv`,
        ownerId: actor.id,
      };
      return reply.code(201).send(await storeUpload(app, stored, file.data, actor));
    },
  );
};

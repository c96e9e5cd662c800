import type { FastifyRequest } from 'fastify';
import { NON_FIELD_ERRORS, type FieldErrors } from '@portal/contract';
import { FILE_TOO_LARGE, MAX_UPLOAD_BYTES, ONE_FILE_ONLY } from '../../../../lib/upload-rules';

/** EvidenceSubmission is bounded well below this (readouts of at most 40 short entries). */
export const MAX_DATA_CHARS = 64 * 1024;

const dataTooLong = `Ensure this field has no more than ${MAX_DATA_CHARS} characters.`;
const DATA_NOT_TEXT = 'Send data as a text field, not as a file.';

export interface UploadedImage {
  fileName: string;
  declaredType: string;
  data: Buffer;
  /** More than MAX_UPLOAD_BYTES arrived; `data` holds only the first MAX_UPLOAD_BYTES. */
  tooLarge: boolean;
}

export interface EvidenceForm {
  /** The `data` field as sent (text, or already parsed when sent as application/json). */
  data: unknown;
  image: UploadedImage | null;
  /** Problems of the form itself, found while reading it. */
  errors: FieldErrors;
  /** The image went over MAX_UPLOAD_BYTES: the whole request is answered 413. */
  tooLarge: boolean;
}

const MALFORMED_FORM = 'The multipart form could not be read.';

const MULTIPART_ERRORS: Readonly<Record<string, [field: string, message: string]>> = {
  FST_FILES_LIMIT: ['image', ONE_FILE_ONLY],
  FST_REQ_FILE_TOO_LARGE: ['image', FILE_TOO_LARGE],
  FST_INVALID_JSON_FIELD_ERROR: ['data', 'Invalid JSON.'],
  FST_PARTS_LIMIT: [NON_FIELD_ERRORS, 'Too many form fields.'],
  FST_FIELDS_LIMIT: [NON_FIELD_ERRORS, 'Too many form fields.'],
  FST_PROTO_VIOLATION: [NON_FIELD_ERRORS, 'Invalid form field name.'],
};

/**
 * Expects @fastify/multipart registered with `throwFileSizeLimit: false`: an oversized image is
 * then truncated by the parser (never more than MAX_UPLOAD_BYTES in memory) and reported, not an
 * exception that ends reading the form.
 *
 * Reads the whole multipart form into memory (one image of at most 10 MB and a text field of at
 * most 64 KB, both cut off by the parser while streaming) so that it can be judged as a whole
 * before anything is stored.
 */
async function drain(stream: AsyncIterable<unknown>): Promise<void> {
  for await (const chunk of stream) void chunk;
}

export async function readEvidenceForm(request: FastifyRequest): Promise<EvidenceForm> {
  const form: EvidenceForm = { data: undefined, image: null, errors: {}, tooLarge: false };
  try {
    const parts = request.parts({
      // The name as sent: stripped of its path ('../x.png' → 'x.png') it would pass the name rules.
      preservePath: true,
      // One file, the image: a second file part ends the form with FST_FILES_LIMIT.
      limits: {
        fileSize: MAX_UPLOAD_BYTES,
        files: 1,
        fields: 4,
        parts: 5,
        fieldSize: MAX_DATA_CHARS,
      },
    });
    for await (const part of parts) {
      if (part.type === 'file') {
        if (part.fieldname !== 'image') {
          // Every file stream must be read to the end, or the form never finishes; an unexpected
          // file is not kept in memory.
          await drain(part.file);
          // FormData makes every Blob a file part; as a file, data would escape the 64 KB limit.
          if (part.fieldname === 'data') form.errors.data = [DATA_NOT_TEXT];
          continue;
        }
        const data = await part.toBuffer();
        form.image = {
          fileName: part.filename ?? '',
          declaredType: part.mimetype,
          data,
          tooLarge: part.file.truncated,
        };
        if (part.file.truncated) form.tooLarge = true;
      } else if (part.fieldname === 'data') {
        if (part.valueTruncated) {
          form.errors.data = [dataTooLong];
        } else {
          form.data = part.value;
        }
      }
    }
  } catch (error) {
    const known = MULTIPART_ERRORS[(error as { code?: string }).code ?? ''];
    if (known) form.errors[known[0]] = [known[1]];
    // The parser (busboy) reports a body it cannot read (no boundary, cut off, bad part headers)
    // with a plain Error and no code; only the request is to blame, so it is a 400, not a 500.
    else if (error instanceof Error && error.constructor === Error && !('code' in error)) {
      form.errors[NON_FIELD_ERRORS] = [MALFORMED_FORM];
    } else throw error;
  }
  return form;
}

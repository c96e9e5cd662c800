import { FIELD_MESSAGE_TEMPLATES, formatFieldMessage } from '@portal/contract';

/**
 * The file rules of docs/requirements.md#file-rules, with its messages, so every upload route refuses the same names and
 * sizes the same way.
 */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
export const MAX_FILE_NAME_LENGTH = 255;

export const FILE_NAME_INVALID = 'File name is invalid.';
export const FILE_NAME_TOO_LONG = 'File name is too long.';
export const FILE_TOO_LARGE = 'File is too large. Max file size is 10MB';
export const FILE_EMPTY = 'The submitted file is empty.';
export const ONE_FILE_ONLY = 'Only one file may be uploaded.';
export const fileExtensionInvalid = (allowed: readonly string[]) =>
  formatFieldMessage(FIELD_MESSAGE_TEMPLATES.fileExtensionInvalid, { allowed: allowed.join(', ') });
export const fileTypeInvalid = (allowed: readonly string[]) =>
  formatFieldMessage(FIELD_MESSAGE_TEMPLATES.fileTypeInvalid, { allowed: allowed.join(', ') });

// Characters Windows forbids in names, and every control character (C0, DEL and C1); the files
// end up on learners' and administrators' disks when downloaded.
// eslint-disable-next-line no-control-regex -- matching control characters is the point of this pattern
const FORBIDDEN_CHARACTERS = /[<>:"/\\|?*\u0000-\u001f\u007f-\u009f]/;
const RESERVED_DEVICE_NAME = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])$/i;

export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? '' : name.slice(dot + 1).toLowerCase();
}

/** The first rule the name breaks, or null when it is acceptable. */
export function fileNameError(name: string, allowedExtensions: readonly string[]): string | null {
  const base = name.split('.')[0] ?? '';
  if (
    name.trim() === '' ||
    FORBIDDEN_CHARACTERS.test(name) ||
    RESERVED_DEVICE_NAME.test(base.trim()) ||
    // Windows silently drops a trailing dot or space, so the name would not round-trip.
    /[. ]$/.test(name)
  ) {
    return FILE_NAME_INVALID;
  }
  if (name.length > MAX_FILE_NAME_LENGTH) return FILE_NAME_TOO_LONG;
  if (!allowedExtensions.includes(extensionOf(name)))
    return fileExtensionInvalid(allowedExtensions);
  return null;
}

export type ImageType = 'image/png' | 'image/jpeg';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const JPEG_SIGNATURE = Buffer.from([0xff, 0xd8, 0xff]);

/** What the bytes are, whatever the client declared: the declared type alone is not evidence. */
export function sniffImageType(data: Buffer): ImageType | null {
  if (data.subarray(0, PNG_SIGNATURE.length).equals(PNG_SIGNATURE)) return 'image/png';
  if (data.subarray(0, JPEG_SIGNATURE.length).equals(JPEG_SIGNATURE)) return 'image/jpeg';
  return null;
}

/** Extensions that name each image type; the stored key uses the first. */
export const IMAGE_EXTENSIONS: Readonly<Record<ImageType, readonly string[]>> = {
  'image/png': ['png'],
  'image/jpeg': ['jpg', 'jpeg'],
};

/** `1 GB`, `500 MB`: whole units where they fit, for messages about sizes and quotas. */
export function formatBytes(bytes: number): string {
  for (const [unit, size] of [
    ['GB', 1024 ** 3],
    ['MB', 1024 ** 2],
    ['KB', 1024],
  ] as const) {
    if (bytes >= size) {
      const value = bytes / size;
      return `${Number.isInteger(value) ? value : value.toFixed(1)} ${unit}`;
    }
  }
  return `${bytes} bytes`;
}

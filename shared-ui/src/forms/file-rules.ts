// docs/requirements.md#file-rules, checked in the browser before an upload starts, with the API's messages
// (api/src/lib/upload-rules.ts applies the same rules on the server).

export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
export const MAX_FILE_NAME_LENGTH = 255;
export const DEFAULT_ALLOWED_EXTENSIONS = ['jpg', 'png', 'csv', 'json'] as const;

/** What browsers and spreadsheet programs declare per extension; '' is sent as octet-stream. */
export const TYPES_BY_EXTENSION: Readonly<Record<string, readonly string[]>> = {
  csv: ['text/csv', 'application/csv', 'text/x-csv', 'application/x-csv', 'application/vnd.ms-excel', 'text/plain', 'application/octet-stream'],
  json: ['application/json', 'text/json', 'text/plain', 'application/octet-stream'],
  png: ['image/png'],
  jpg: ['image/jpeg'],
  jpeg: ['image/jpeg'],
};

export type FileProblem =
  | { code: 'nameInvalid' }
  | { code: 'nameTooLong' }
  | { code: 'extensionInvalid'; allowed: string }
  | { code: 'typeInvalid'; allowed: string }
  | { code: 'tooLarge' }
  | { code: 'oneFileOnly' };

// eslint-disable-next-line no-control-regex -- matching control characters is the point of this pattern
const FORBIDDEN_CHARACTERS = /[<>:"/\\|?*\u0000-\u001f\u007f-\u009f]/;
const RESERVED_DEVICE_NAME = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])$/i;

export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? '' : name.slice(dot + 1).toLowerCase();
}

/** The first §5 rule the chosen files break, or null. */
export function fileProblem(
  files: readonly Pick<File, 'name' | 'size' | 'type'>[],
  allowedExtensions: readonly string[] = DEFAULT_ALLOWED_EXTENSIONS,
  maxBytes = MAX_UPLOAD_BYTES,
): FileProblem | null {
  if (files.length !== 1) return { code: 'oneFileOnly' };
  const [file] = files as [Pick<File, 'name' | 'size' | 'type'>];
  const { name } = file;
  const base = name.split('.')[0] ?? '';
  // Windows drops a trailing dot or space, so such a name would not round-trip.
  if (name.trim() === '' || FORBIDDEN_CHARACTERS.test(name) || RESERVED_DEVICE_NAME.test(base.trim()) || /[. ]$/.test(name)) {
    return { code: 'nameInvalid' };
  }
  if (name.length > MAX_FILE_NAME_LENGTH) return { code: 'nameTooLong' };
  const extension = extensionOf(name);
  if (!allowedExtensions.includes(extension)) return { code: 'extensionInvalid', allowed: allowedExtensions.join(', ') };
  const types = TYPES_BY_EXTENSION[extension] ?? [];
  const declared = (file.type || 'application/octet-stream').split(';')[0]?.trim().toLowerCase() ?? '';
  if (types.length > 0 && !types.includes(declared)) {
    return { code: 'typeInvalid', allowed: [...new Set(allowedExtensions.flatMap((e) => TYPES_BY_EXTENSION[e]?.[0] ?? []))].join(', ') };
  }
  if (file.size > maxBytes) return { code: 'tooLarge' };
  return null;
}

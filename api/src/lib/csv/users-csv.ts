import { parse } from 'csv-parse/sync';
import {
  USER_ADMIN_MESSAGES as M,
  USER_CSV_COLUMNS,
  USER_CSV_MAX_ROWS,
  USER_EMAIL_MAX_LENGTH,
  USER_NAME_MAX_LENGTH,
  type CsvRowError,
  type UserCsvColumn,
} from '@portal/contract';

/** One user row of the file, cleaned: names trimmed, e-mail trimmed and lower-cased. */
export interface UserCsvRow {
  /** Spreadsheet row: the header is row 1 (blank lines count, as an editor shows them). */
  row: number;
  firstName: string;
  lastName: string;
  email: string;
}

export type UsersCsvResult =
  /** The file itself is unusable (encoding, header, size); nothing row-level was checked. */
  | { ok: false; fileErrors: string[]; rowErrors: [] }
  /** Rows were read; `rowErrors` lists every problem found in them (empty = all good). */
  | { ok: true; rows: UserCsvRow[]; rowErrors: CsvRowError[] };

const fill = (template: string, values: Record<string, string | number>) =>
  template.replace(/\{(\w+)\}/g, (_, key: string) => String(values[key] ?? ''));

// Roughly what Django's EmailValidator and Keycloak accept: one @, a dotted domain, no blanks.
const EMAIL =
  /^[^\s@"(),:;<>[\\\]]+@[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+$/i;
// Control characters (C0, DEL, C1) and the bidirectional overrides that make a name read
// differently on screen than it is stored.
// eslint-disable-next-line no-control-regex -- matching control characters is the point of this pattern
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

export function emailError(email: string): string | null {
  if (email === '') return M.required;
  if (email.length > USER_EMAIL_MAX_LENGTH) return fill(M.tooLong, { n: USER_EMAIL_MAX_LENGTH });
  const at = email.lastIndexOf('@');
  if (!EMAIL.test(email) || at > 64 || UNPRINTABLE.test(email)) return M.invalidEmail;
  return null;
}

export function nameError(name: string): string | null {
  if (name === '') return M.required;
  if (name.length > USER_NAME_MAX_LENGTH) return fill(M.tooLong, { n: USER_NAME_MAX_LENGTH });
  if (UNPRINTABLE.test(name)) return M.invalidName;
  return null;
}

/** `,` unless the header row holds more `;` (spreadsheets in comma-decimal locales save those). */
export function detectDelimiter(text: string): ',' | ';' {
  const firstLine = text.slice(0, text.search(/\r|\n|$/));
  const count = (c: string) => firstLine.split(c).length - 1;
  return count(';') > count(',') ? ';' : ',';
}

/** The text of a UTF-8 file without its BOM, or null when the bytes are not UTF-8 text. */
export function decodeUtf8(data: Buffer): string | null {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(data);
  } catch {
    return null;
  }
  // A NUL is never in a text file; UTF-16 files (Excel's "Unicode text") are full of them.
  if (text.includes('\u0000')) return null;
  return text.startsWith('\ufeff') ? text.slice(1) : text;
}

const COLUMN_BY_NAME = new Map<string, UserCsvColumn>(
  USER_CSV_COLUMNS.map((c) => [c.toLowerCase(), c]),
);

const newlines = (value: string) => value.match(/\r\n|\r|\n/g)?.length ?? 0;

/**
 * Reads and checks a users CSV (contract: USER_CSV_COLUMNS). Every row is checked, so the answer
 * lists all problems at once; what needs the database (e-mails already in use, seats) is the
 * caller's to add.
 */
export function parseUsersCsv(data: Buffer): UsersCsvResult {
  const refuse = (...fileErrors: string[]): UsersCsvResult => ({
    ok: false,
    fileErrors,
    rowErrors: [],
  });
  const text = decodeUtf8(data);
  if (text === null) return refuse(M.notUtf8);
  if (text.trim() === '') return refuse(M.headerMissing);

  let records: Array<{ record: string[]; info: { lines: number } }>;
  try {
    records = parse(text, {
      delimiter: detectDelimiter(text),
      // Files from Windows, old Macs and everything else, even mixed in one file.
      record_delimiter: ['\r\n', '\n', '\r'],
      skip_empty_lines: true,
      // A short or long row is reported as that row's problem, not as an unreadable file.
      relax_column_count: true,
      info: true,
      // One row more than allowed is enough to know the file is too long.
      to: USER_CSV_MAX_ROWS + 2,
    }) as unknown as Array<{ record: string[]; info: { lines: number } }>;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return refuse(fill(M.unreadable, { reason }));
  }

  const [header, ...body] = records;
  if (!header) return refuse(M.headerMissing);
  const names = header.record.map((h) => h.trim().replace(/^\ufeff/, ''));
  const index = new Map<UserCsvColumn, number>();
  const unknown: string[] = [];
  const repeated: string[] = [];
  names.forEach((name, i) => {
    const column = COLUMN_BY_NAME.get(name.toLowerCase());
    if (!column) {
      if (name !== '') unknown.push(name);
    } else if (index.has(column)) repeated.push(column);
    else index.set(column, i);
  });
  const missing = USER_CSV_COLUMNS.filter((c) => !index.has(c));
  if (missing.length === USER_CSV_COLUMNS.length) return refuse(M.headerMissing);
  const headerErrors = [
    ...(missing.length > 0 ? [fill(M.columnsMissing, { columns: missing.join(', ') })] : []),
    ...(unknown.length > 0
      ? [fill(M.columnsUnknown, { columns: unknown.map((u) => JSON.stringify(u)).join(', ') })]
      : []),
    ...(repeated.length > 0 ? [fill(M.columnRepeated, { columns: repeated.join(', ') })] : []),
  ];
  if (headerErrors.length > 0) return refuse(...headerErrors);
  if (body.length === 0) return refuse(M.noRows);
  if (body.length > USER_CSV_MAX_ROWS) return refuse(fill(M.tooManyRows, { n: USER_CSV_MAX_ROWS }));

  const rows: UserCsvRow[] = [];
  const rowErrors: CsvRowError[] = [];
  const firstRowOf = new Map<string, number>();
  for (const { record, info } of body) {
    // info.lines is where the record ends; quoted line breaks inside it move its start up.
    const row = info.lines - record.reduce((n, value) => n + newlines(value), 0);
    const value = (column: UserCsvColumn) => (record[index.get(column) ?? -1] ?? '').trim();
    const firstName = value('firstName');
    const lastName = value('lastName');
    const email = value('email').toLowerCase();
    const errors: CsvRowError[] = [];
    // A stray delimiter (an unquoted "Smith, Jr.") shifts the values into the wrong columns.
    if (record.slice(names.length).some((extra) => extra.trim() !== '')) {
      errors.push({
        row,
        field: 'row',
        message: fill(M.fieldCount, { n: record.length, m: names.length }),
      });
    }
    for (const [field, error] of [
      ['firstName', nameError(firstName)],
      ['lastName', nameError(lastName)],
      ['email', emailError(email)],
    ] as const) {
      if (error) errors.push({ row, field, message: error });
    }
    if (!errors.some((e) => e.field === 'email')) {
      const first = firstRowOf.get(email);
      if (first !== undefined) {
        errors.push({ row, field: 'email', message: fill(M.duplicateInFile, { row: first }) });
      } else firstRowOf.set(email, row);
    }
    if (errors.length > 0) rowErrors.push(...errors);
    else rows.push({ row, firstName, lastName, email });
  }
  return { ok: true, rows, rowErrors };
}

export { fill as fillMessage };

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { detectDelimiter, parseUsersCsv } from '../../../../../src/lib/csv/users-csv';

const parse = (text: string | Buffer) =>
  parseUsersCsv(Buffer.isBuffer(text) ? text : Buffer.from(text));

describe('users CSV', () => {
  test('header in any order and case, UTF-8 BOM, ; delimiter, CRLF and quoted fields', () => {
    const text = '\ufeffEMAIL;LastName;firstname\r\n"zoe@example.test";"O\'Brien; Jr.";"Zoë"\r\n';
    const result = parse(text);
    assert.ok(result.ok);
    assert.deepEqual(result.rows, [
      { row: 2, firstName: 'Zoë', lastName: "O'Brien; Jr.", email: 'zoe@example.test' },
    ]);
    assert.deepEqual(result.rowErrors, []);
  });

  test('commas, doubled quotes, blank lines and a quoted line break keep the spreadsheet row', () => {
    const text =
      'firstName,lastName,email\n\n"Anna ""Nan""",Smith,anna@example.test\n"Bad\nName",X,b@example.test\n';
    const result = parse(text);
    assert.ok(result.ok);
    assert.deepEqual(result.rows, [
      { row: 3, firstName: 'Anna "Nan"', lastName: 'Smith', email: 'anna@example.test' },
    ]);
    assert.deepEqual(result.rowErrors, [
      { row: 4, field: 'firstName', message: 'Enter a valid name.' },
    ]);
  });

  test('the delimiter is the one the header uses more', () => {
    assert.equal(detectDelimiter('firstName;lastName;email\na,b,c'), ';');
    assert.equal(detectDelimiter('firstName,lastName,email\na;b;c'), ',');
  });

  test('file-level refusals: not UTF-8, no header, missing and unknown columns, no rows', () => {
    assert.deepEqual(parse(Buffer.from([0xff, 0xfe, 0x41, 0x00])), {
      ok: false,
      fileErrors: ['The file is not UTF-8 text.'],
      rowErrors: [],
    });
    assert.deepEqual(parse('a,b\n1,2\n').ok ? null : parse('a,b\n1,2\n'), {
      ok: false,
      fileErrors: ['The first row must name the columns firstName, lastName and email.'],
      rowErrors: [],
    });
    const missing = parse('firstName,email,role\nA,a@example.test,x\n');
    assert.deepEqual(missing.ok ? null : missing.fileErrors, [
      'Missing column(s): lastName. The columns are firstName, lastName and email.',
      'Unknown column(s): "role". The columns are firstName, lastName and email.',
    ]);
    const empty = parse('firstName,lastName,email\n');
    assert.deepEqual(empty.ok ? null : empty.fileErrors, ['The file has no user rows.']);
    const unclosed = parse('firstName,lastName,email\n"A,B,c@example.test\n');
    assert.ok(
      !unclosed.ok && unclosed.fileErrors[0]!.startsWith('The file could not be read as CSV:'),
    );
  });

  test('10 000 rows are accepted, 10 001 refused', () => {
    const rows = (n: number) =>
      [
        'firstName,lastName,email',
        ...Array.from({ length: n }, (_, i) => `F${i},L${i},u${i}@example.test`),
      ].join('\n');
    const ok = parse(rows(10_000));
    assert.ok(ok.ok);
    assert.equal(ok.rows.length, 10_000);
    assert.equal(ok.rows.at(-1)!.row, 10_001);
    const tooMany = parse(rows(10_001));
    assert.deepEqual(tooMany.ok ? null : tooMany.fileErrors, [
      'The file has more than 10000 user rows.',
    ]);
  });

  test('row errors: missing values, bad e-mail, duplicates in any case, extra values, long names', () => {
    const long = 'x'.repeat(151);
    const result = parse(
      [
        'firstName,lastName,email',
        'A,B,a@example.test',
        'A,B,A@EXAMPLE.TEST',
        ',B,c@example.test',
        'A,B,not mail',
        'Smith, Jr.,B,d@example.test',
        `${long},B,e@example.test`,
        'A,B',
      ].join('\n'),
    );
    assert.ok(result.ok);
    assert.deepEqual(
      result.rows.map((r) => r.row),
      [2],
    );
    assert.deepEqual(result.rowErrors, [
      {
        row: 3,
        field: 'email',
        message: 'This e-mail address appears more than once in the file (first in row 2).',
      },
      { row: 4, field: 'firstName', message: 'This field is required.' },
      { row: 5, field: 'email', message: 'Enter a valid email address.' },
      {
        row: 6,
        field: 'row',
        message:
          'This row has 4 fields but the header has 3; quote values that contain the delimiter.',
      },
      { row: 6, field: 'email', message: 'Enter a valid email address.' },
      { row: 7, field: 'firstName', message: 'Ensure this field has no more than 150 characters.' },
      { row: 8, field: 'email', message: 'This field is required.' },
    ]);
  });
});

import { Transform, type TransformCallback, type Readable } from 'node:stream';
import { stringify } from 'csv-stringify/sync';
import { INSIGHT_EXPORT_COLUMNS } from '@portal/contract';
import type { Db } from '../../db/driver';
import {
  IMAGES_IN_RANGE,
  REPORTS_IN_RANGE,
  filterParams,
  type InsightFilter,
} from '../../repositories/insight-repository';
import {
  CSV_OPTIONS,
  EXPORT_COLUMNS_SQL,
  EXPORT_JOINS_SQL,
  insightCsvStream,
} from './insight-export';

/**
 * export.csv on PostgreSQL: the rows come as CSV straight from `COPY … TO STDOUT (FORMAT csv)`,
 * so neither pg's row parsing nor csv-stringify runs per cell (they were half the export's time).
 * The select writes every cell exactly as the csv-stringify path does (insight-export.ts):
 * `insight-export-copy.test.ts` compares the two byte for byte on PostgreSQL.
 */

/** The filter travels as one setting of the COPY's transaction (COPY takes no parameters). */
export const EXPORT_FILTER_SETTING = 'portal.insight_export_filter';

/** What csv-stringify's escape_formulas prefixes with `'` (csv-stringify 6.9, lib/api/index.js). */
const FORMULA_FIRST = ['=', '+', '-', '@', '\t', '\r', '\uFF1D', '\uFF0B', '\uFF0D', '\uFF20'];
const sqlText = (c: string) =>
  c === '\t' ? `E'\\t'` : c === '\r' ? `E'\\r'` : `'${c.replaceAll("'", "''")}'`;

/**
 * A text cell as csv-stringify writes it: formula-safe, and the empty string as NULL, which COPY
 * writes as nothing (it writes a non-null empty string as `""`, csv-stringify as nothing).
 */
export const formulaSafe = (v: string) =>
  `case when left(${v}, 1) in (${FORMULA_FIRST.map(sqlText).join(', ')}) then '''' || ${v}
        else nullif(${v}, '') end`;

/**
 * A float8 as `String(Math.round(v * 10 ** digits) / 10 ** digits)` writes it. Math.round rounds
 * halves up (PostgreSQL's round() to even), so the rounding is floor plus one from a half; the
 * `+ 0` turns JavaScript's -0 (printed "0") into 0. float8's text with extra_float_digits ≥ 1 is
 * the shortest exact form, as JavaScript's, below 1e15. From 1e15 on PostgreSQL writes an
 * exponent (and at times one digit more) where JavaScript writes whole digits: such values (no
 * DAP or dose ratio comes near; a knee's DAP is a few hundred mGy·cm²) are written as PostgreSQL
 * prints them, and not scaled at all from 1e300, where scaling could overflow, an error there.
 */
export const jsRoundedText = (v: string, digits: number) => {
  const scale = `${10 ** digits}::float8`;
  const y = `(${v} * ${scale})`;
  const r = `((floor(${y}) + case when ${y} - floor(${y}) >= 0.5 then 1 else 0 end) / ${scale} + 0)`;
  return `case when abs(${v}) >= 1e15 then ${v}::text else ${r}::text end`;
};

/** $1…$6 of IMAGES_IN_RANGE, read once from the setting (an InitPlan each, so index bounds). */
const FILTER_FROM_SETTING = `
  f as materialized (
    select (p ->> 0)::int as p1, p ->> 1 as p2, p ->> 2 as p3, (p ->> 3)::int as p4,
           p ->> 4 as p5, (p ->> 5)::uuid as p6
      from (select current_setting('${EXPORT_FILTER_SETTING}')::jsonb as p) x)`;
const fromSetting = (sql: string) => sql.replace(/\$([1-6])\b/g, '(select p$1 from f)');

/**
 * The whole range in one statement, joined rather than looked up per row: the session from the
 * range of reports (the same conditions on the session's own columns, one index range, where
 * insight_images copied them), the learner by hash. The planner cannot see the filter's values
 * (they are settings), guesses one row and would look each row up in a nested loop, so the COPY's
 * transaction turns nested loops off: hash joins, then one sort in memory (work_mem raised for
 * that transaction), were three times faster at 72 000 images than the page's per-row lookups.
 */
const COPY_ROWS = `
  select ${EXPORT_COLUMNS_SQL}
    from (${fromSetting(IMAGES_IN_RANGE)}) i
    join (${fromSetting(REPORTS_IN_RANGE)}) s on s.id = i.session_id
    join users u on u.id = i.user_id
    ${EXPORT_JOINS_SQL}`;

export const COPY_SELECT = `
  with ${FILTER_FROM_SETTING}
  select ${formulaSafe('r.learner')}, ${formulaSafe('r.learner_email')}, r.session,
         to_char(r.recorded at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
         ${formulaSafe('r.product')}, ${formulaSafe('r.configuration')},
         ${formulaSafe('r.projection')}, ${formulaSafe('trim_scale(r.image_mark)::text')},
         ${formulaSafe('r.session_score::text')},
         case when r.repeat then 'yes' else 'no' end,
         ${formulaSafe(`(${jsRoundedText('r.dap_mgy_cm2', 3)})`)},
         ${formulaSafe(`(${jsRoundedText('r.dose_to_drl', 4)})`)},
         ${formulaSafe('r.criteria')}, ${formulaSafe('r.image_feedback')},
         ${formulaSafe('r.report_feedback')}
    from (${COPY_ROWS} offset 0) r
   order by r.recorded, r.session_id, r.position`;

/** The header as csv-stringify writes it, after the UTF-8 BOM. */
const HEAD = Buffer.concat([
  Buffer.from([0xef, 0xbb, 0xbf]),
  Buffer.from(stringify([[...INSIGHT_EXPORT_COLUMNS]], CSV_OPTIONS)),
]);

const QUOTE = 0x22;
const LF = 0x0a;
const CRLF = Buffer.from('\r\n');

/**
 * COPY ends records with LF; the export's are CRLF (csv-stringify's `windows`). A line feed
 * inside a quoted cell is data and stays: the quote parity so far tells the two apart (a doubled
 * quote flips it twice), carried across chunks.
 */
export class CsvRecordsToCrlf extends Transform {
  private quoted = false;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback) {
    const parts: Buffer[] = [];
    let start = 0;
    let at = 0;
    while (at < chunk.length) {
      const quote = chunk.indexOf(QUOTE, at);
      const lf = this.quoted ? -1 : chunk.indexOf(LF, at);
      if (lf !== -1 && (quote === -1 || lf < quote)) {
        parts.push(chunk.subarray(start, lf), CRLF);
        start = at = lf + 1;
      } else if (quote !== -1) {
        this.quoted = !this.quoted;
        at = quote + 1;
      } else break;
    }
    parts.push(chunk.subarray(start));
    done(null, parts.length === 1 ? chunk : Buffer.concat(parts));
  }
}

/** The settings of the COPY's transaction (COPY_SELECT's inputs and its planner settings). */
export const copySettings = (filter: InsightFilter): Record<string, string> => ({
  [EXPORT_FILTER_SETTING]: JSON.stringify(filterParams(filter)),
  // The shortest exact float8 text, which jsRoundedText's output relies on.
  extra_float_digits: '1',
  // See COPY_ROWS.
  enable_nestloop: 'off',
  work_mem: '64MB',
});

/** export.csv from COPY: BOM and header, then the server's rows with CRLF record ends. */
export async function insightCopyStream(db: Db, filter: InsightFilter): Promise<Readable> {
  if (!db.copyCsvOut) throw new Error('COPY needs PostgreSQL');
  const rows = await db.copyCsvOut(COPY_SELECT, copySettings(filter));
  const csv = new CsvRecordsToCrlf();
  csv.push(HEAD);
  // Either end gone takes the other with it: a client's abort destroys `csv`, which ends the COPY.
  rows.on('error', (error) => csv.destroy(error));
  csv.on('close', () => rows.destroy());
  return rows.pipe(csv);
}

/** The route's export: COPY on PostgreSQL, keyset pages through csv-stringify on PGlite. */
export const insightExportStream = (db: Db, filter: InsightFilter): Promise<Readable> =>
  db.copyCsvOut ? insightCopyStream(db, filter) : Promise.resolve(insightCsvStream(db, filter));

import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import { INSIGHT_EXPORT_COLUMNS } from '@portal/contract';
import type { Queryable } from '../../db/driver';
import {
  IMAGES_IN_RANGE,
  filterParams,
  type InsightFilter,
} from '../../repositories/insight-repository';

/** Images read per page: a page is one query of a few hundred kB, whatever the range. */
export const EXPORT_PAGE_IMAGES = 2000;

/** The educator's comments (issue #23 point 3): on the image, and on the whole report. */
const IMAGE_FEEDBACK_SQL = 'ef.comment';
const REPORT_FEEDBACK_SQL = 'rf.comment';

interface ExportRow {
  learner: string;
  learner_email: string | null;
  session: string;
  recorded: Date | string;
  product: string;
  configuration: string;
  projection: string;
  image_mark: string | number | null;
  session_score: number | null;
  repeat: boolean;
  dap_mgy_cm2: number | null;
  dose_to_drl: number | null;
  criteria: string | null;
  image_feedback: string | null;
  report_feedback: string | null;
  /** The keyset of the next page: the image's (recorded, session id, position). */
  recorded_key: string;
  session_id: number;
  position: number;
}

/**
 * The criteria in the order the report shows them (migration 0032's check allows no others). One
 * filtered max per criterion builds the cell without sorting each image's marks (a sort per row
 * was half of a page's time).
 */
const CRITERIA = ['centring', 'collimation', 'kV', 'mAs', 'dose', 'exposureIndex', 'repeats'];

/**
 * The export's columns of one image `i` (an insight_images row) with its session `s` (score,
 * configuration as stored), learner `u`, product `p`, configuration `c` and feedback `ef`, `rf`.
 * The criteria cell is one filtered max per criterion in the report's order (no sort per image).
 * Both formatters read them: the keyset pages below and the COPY of insight-export-copy.ts.
 */
export const EXPORT_COLUMNS_SQL = `
  trim(u.first_name || ' ' || u.last_name) as learner, u.email as learner_email,
  i.session_uuid::text as session, i.recorded, p.name as product, s.configuration,
  i.projection, i.score as image_mark, s.score as session_score, i.is_repeat as repeat,
  i.dap_mgy_cm2,
  i.dose_value / nullif((c.marking_scheme #>> '{criteria,dose,drlDapMGyCm2}')::float8, 0)
    as dose_to_drl,
  (select concat_ws('; ', ${CRITERIA.map((c) => `max(m.text) filter (where m.criterion = '${c}')`).join(', ')})
     from (select m.criterion,
                  m.criterion || ' ' || coalesce(trim_scale(m.mark)::text, '-') || '/'
                    || trim_scale(m.max)::text
                    || case when m.reason = 'met' then '' else ' ' || m.reason end as text
             from evidence_marks m where m.evidence_id = i.evidence_id) m) as criteria,
  ${IMAGE_FEEDBACK_SQL} as image_feedback,
  ${REPORT_FEEDBACK_SQL} as report_feedback,
  i.session_id, i.position`;

/** The product, the configuration's scheme (its DRL) and the feedback of image `i`. */
export const EXPORT_JOINS_SQL = `
    join products p on p.id = i.product_id
    left join product_configurations c
      on c.product_id = i.product_id and lower(c.configuration_name) = i.configuration_key
    left join evidence_feedback ef on ef.evidence_id = i.evidence_id
    left join report_feedback rf on rf.session_uuid = i.session_uuid`;

/**
 * One page: the images in export order, with the session and the learner looked up per row by
 * key. Lookups rather than joins keep the page in index order (no sort) and never hash a whole
 * table (the organisation's users) for a page of 2 000 rows; `offset 0` keeps the planner from
 * turning the lateral lookups back into such joins.
 */
const exportPageSql = (images: string) => `
  select ${EXPORT_COLUMNS_SQL}, i.recorded::text as recorded_key
    from (${images}) i
   cross join lateral (
     select s.score, s.configuration from simulation_sessions s where s.id = i.session_id offset 0) s
   cross join lateral (
     select u.first_name, u.last_name, u.email from users u where u.id = i.user_id offset 0) u
   ${EXPORT_JOINS_SQL}
   order by i.recorded, i.session_id, i.position`;

/** The export's order: insight_images_org_recorded_idx after the organisation (migration 0034). */
const EXPORT_ORDER = 'order by i.recorded, i.session_id, i.position';

// Keyset pages over insight_images_org_recorded_idx (organisation_id, recorded, session_id,
// position): each page continues the index range where the last ended, so every page costs the
// same, and a page, not the result, is all that is ever held in memory. One query per page. The
// same SQL serves PGlite (which has no server-side cursor behind the Db interface) and
// PostgreSQL.
const pageSql = (after: string) =>
  exportPageSql(`${IMAGES_IN_RANGE} ${after} ${EXPORT_ORDER} limit $7`);
const FIRST_PAGE = pageSql('');
const NEXT_PAGE = pageSql(
  'and (i.recorded, i.session_id, i.position) > ($8::timestamptz, $9::int, $10::int)',
);

/**
 * The export's rows, page by page. The next page is asked for before this one's rows are handed
 * on, so the database reads it while the consumer formats these (the two ran in turn before, each
 * waiting for the other); at most two pages are ever held.
 */
export async function* exportRows(
  q: Queryable,
  filter: InsightFilter,
  pageSize = EXPORT_PAGE_IMAGES,
): AsyncGenerator<ExportRow> {
  const pageAfter = (last: ExportRow | undefined) =>
    last
      ? q.query<ExportRow>(NEXT_PAGE, [
          ...filterParams(filter),
          pageSize,
          last.recorded_key,
          last.session_id,
          last.position,
        ])
      : q.query<ExportRow>(FIRST_PAGE, [...filterParams(filter), pageSize]);
  let next: Promise<{ rows: ExportRow[] }> | undefined = pageAfter(undefined);
  try {
    while (next) {
      const page: { rows: ExportRow[] } = await next;
      next = page.rows.length < pageSize ? undefined : pageAfter(page.rows[page.rows.length - 1]);
      for (const row of page.rows) yield row;
    }
  } finally {
    // A consumer that stops early (a client gone) leaves the read-ahead unawaited: its failure
    // has no one to report to.
    next?.catch(() => undefined);
  }
}

/** A number cell: rounded to `digits` places, written as JavaScript writes numbers. */
export const cell = (v: number | null, digits: number) =>
  v === null ? '' : String(Math.round(Number(v) * 10 ** digits) / 10 ** digits);

function toRecord(row: ExportRow): string[] {
  return [
    row.learner,
    row.learner_email ?? '',
    row.session,
    new Date(row.recorded).toISOString(),
    row.product,
    row.configuration,
    row.projection,
    row.image_mark === null ? '' : cell(Number(row.image_mark), 2),
    row.session_score === null ? '' : String(row.session_score),
    row.repeat ? 'yes' : 'no',
    cell(row.dap_mgy_cm2, 3),
    cell(row.dose_to_drl, 4),
    row.criteria ?? '',
    row.image_feedback ?? '',
    row.report_feedback ?? '',
  ];
}

/**
 * How both formatters write a cell. `quote_record_delimiter`: csv-stringify turns it off once a
 * record delimiter is named, and then left a lone line feed (a multi-line comment) unquoted,
 * which split the row in a spreadsheet; RFC 4180 quotes any field with a CR or LF.
 */
export const CSV_OPTIONS = {
  columns: [...INSIGHT_EXPORT_COLUMNS],
  record_delimiter: 'windows',
  quote_record_delimiter: true,
  escape_formulas: true,
} as const;

/**
 * export.csv as a stream: RFC 4180 (CRLF, quotes doubled), UTF-8 with a BOM so spreadsheets read
 * it as UTF-8, and every cell a spreadsheet would run as a formula (=, +, -, @, tab, CR first)
 * prefixed with `'` by csv-stringify's escape_formulas. Read lazily, so a slow client holds the
 * reading back instead of the rows piling up in memory.
 */
export function insightCsvStream(
  q: Queryable,
  filter: InsightFilter,
  pageSize = EXPORT_PAGE_IMAGES,
): Readable {
  const records = Readable.from(
    (async function* () {
      for await (const row of exportRows(q, filter, pageSize)) yield toRecord(row);
    })(),
    // One record at a time: the stringifier's buffer, not this one, decides how far to read ahead.
    { highWaterMark: 1 },
  );
  const csv = stringify({ ...CSV_OPTIONS, bom: true, header: true });
  records.on('error', (error) => csv.destroy(error));
  return records.pipe(csv);
}

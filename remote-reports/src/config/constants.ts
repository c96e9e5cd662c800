// Values the contract also defines. Browser code imports the contract for types only (its
// schemas must not reach the bundle, see eslint.config.js), so the numbers are repeated here and
// __tests__/constants.test.ts pins them to the contract's.
import type { AnalysisBody } from '@portal/contract';

/** docs/requirements.md#analysis analysis status lookup ids. */
export const ANALYSIS_STATUS = {
  notAnalysed: 22001,
  accepted: 22002,
  rejected: 22003,
} as const satisfies Record<string, number>;
export type AnalysedStatus = AnalysisBody['analysisStatus'];

export const ANALYSIS_MAX_LENGTH = 4000;
export const TABLE_PAGE_SIZE = 10;
export const INVALID_PAGE = 'Invalid page.';
/** docs/requirements.md#main-area: learner reports (and ours) list newest first. */
export const DEFAULT_REPORT_ORDERING = '-id';

export const LESSON_PARTS_PER_LESSON = 2;
/** GET /api/v1/report/{reportId}/image takes at most this many ids (ImageBatchQuery). */
export const MAX_IMAGE_IDS_PER_CALL = 100;
/** docs/requirements.md#analysis: a report's evidence is paged, this many lessons or images a page. */
export const EVIDENCE_PAGE_SIZE = TABLE_PAGE_SIZE;
/** docs/requirements.md#limits-and-defaults: lesson doses are shown for 15 minutes of fluoroscopy. */
export const FLUOROSCOPY_SECONDS = 900;

/** contract INSIGHT_MAX_RANGE_DAYS: the longest range one insight request may cover. */
export const INSIGHT_MAX_RANGE_DAYS = 366;
/** contract INSIGHT_DEFAULT_RANGE_DAYS: the range the API answers for when none is asked for. */
export const INSIGHT_DEFAULT_RANGE_DAYS = 90;
/** contract InsightQuery.configuration maxLength. */
export const INSIGHT_CONFIGURATION_MAX_LENGTH = 255;
/** contract MAX_INT4: the largest id a query may name. */
export const MAX_ID = 2147483647;

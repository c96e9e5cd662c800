import type { Permission } from '@portal/contract';

/** docs/requirements.md#main-area, #permissions: the learner reports list needs permission to view organisation (or all) reports. */
export const LEARNER_REPORTS_PERMISSIONS: readonly Permission[] = ['global.view_org_reports', 'global.view_all_reports'];

/** docs/requirements.md#permissions: the 'Your reports' breadcrumb is shown to those who may view their own reports. */
export const OWN_REPORTS_PERMISSIONS: readonly Permission[] = ['global.view_own_reports'];

/**
 * Issue #23 point 4: cohort insight is for educators of an organisation (view_org_reports);
 * whoever may see every organisation's reports picks the organisation first.
 */
export const INSIGHT_PERMISSIONS: readonly Permission[] = ['global.view_org_reports', 'global.view_all_reports'];
export const PICKS_INSIGHT_ORGANISATION: readonly Permission[] = ['global.view_all_reports'];

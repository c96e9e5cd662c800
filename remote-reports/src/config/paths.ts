// Every route of this remote, relative to where the host mounted it (/report or /lti/report), with
// the one way to build each link. `base` is the mount path from useReportsBase().
export const paths = {
  yourReports: { path: '', getHref: (base: string) => base },
  learnerReports: {
    path: 'learner',
    // One learner's reports (insight's "Reports of …" link) by id: a text search for their name
    // would also list every namesake ("Lena Learner2"). `filter` opens the list already searched.
    getHref: (base: string, query: { learner?: string; filter?: string } = {}) => {
      const search = new URLSearchParams(
        Object.entries(query).filter((entry): entry is [string, string] => Boolean(entry[1])),
      ).toString();
      return search ? `${base}/learner?${search}` : `${base}/learner`;
    },
  },
  noReport: { path: 'no-report', getHref: (base: string) => `${base}/no-report` },
  // Issue #23 point 4: cohort insight (educators) and a learner's own progress.
  insight: { path: 'insight', getHref: (base: string) => `${base}/insight` },
  progress: { path: 'progress', getHref: (base: string) => `${base}/progress` },
  report: {
    path: ':reportId',
    getHref: (base: string, reportId: string) => `${base}/${encodeURIComponent(reportId)}`,
  },
  analysis: {
    path: ':reportId/evidence/:evidenceId/analysis',
    getHref: (base: string, reportId: string, evidenceId: number) =>
      `${base}/${encodeURIComponent(reportId)}/evidence/${evidenceId}/analysis`,
  },
} as const;

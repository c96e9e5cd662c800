// Every route of this remote, relative to where the host mounted it (/report or /lti/report), with
// the one way to build each link. `base` is the mount path from useReportsBase().
export const paths = {
  yourReports: { path: '', getHref: (base: string) => base },
  learnerReports: {
    path: 'learner',
    // A search for one learner (insight's "Reports of …" link) opens the list already searched.
    getHref: (base: string, search?: string) =>
      search ? `${base}/learner?${new URLSearchParams({ filter: search }).toString()}` : `${base}/learner`,
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

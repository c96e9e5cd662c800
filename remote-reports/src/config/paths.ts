// Every route of this remote, relative to where the host mounted it (/report or /lti/report), with
// the one way to build each link. `base` is the mount path from useReportsBase().
export const paths = {
  yourReports: { path: '', getHref: (base: string) => base },
  learnerReports: { path: 'learner', getHref: (base: string) => `${base}/learner` },
  noReport: { path: 'no-report', getHref: (base: string) => `${base}/no-report` },
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

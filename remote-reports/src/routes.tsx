// What the host mounts under /report and /lti/report (docs/architecture.md): route objects
// relative to the mount path. Translations ship with the remote and are registered as soon as it
// loads. The host renders these with useRoutes, so routes carry elements only (no loaders/actions).
import { lazy, Suspense, type ComponentType } from 'react';
import { NotFoundView, PageSpinner, type RouteObject } from '@portal/shared-ui';
import { ReportsBase } from './components/reports-base';
import { paths } from './config/paths';
import { AnalysisRoute } from './features/report/components/analysis-route';
import { NoReportPage } from './features/report/components/no-report-page';
import { ReportPage } from './features/report/components/report-page';
import { LearnerReportsPage } from './features/reports/components/learner-reports-page';
import { YourReportsPage } from './features/reports/components/your-reports-page';
import { remoteStrings } from './config/remote';

// webpack's run-time public path: where remoteEntry.js was loaded from, and so the strings.
declare const __webpack_public_path__: string | undefined;
remoteStrings.register(typeof __webpack_public_path__ === 'string' ? __webpack_public_path__ : undefined);

// Insight and progress (issue #23 point 4) load on their own routes only: the report lists a
// learner opens most do not grow by their filters and charts.
const lazyPage = (load: () => Promise<ComponentType>) => {
  const Page = lazy(async () => ({ default: await load() }));
  return (
    <Suspense fallback={<PageSpinner />}>
      <Page />
    </Suspense>
  );
};

const routes: RouteObject[] = [
  {
    element: <ReportsBase />,
    children: [
      { index: true, element: <YourReportsPage /> },
      { path: paths.learnerReports.path, element: <LearnerReportsPage /> },
      { path: paths.noReport.path, element: <NoReportPage /> },
      {
        path: paths.insight.path,
        element: lazyPage(async () => (await import('./features/insight/components/insight-page')).InsightPage),
      },
      {
        path: paths.progress.path,
        element: lazyPage(async () => (await import('./features/insight/components/progress-page')).ProgressPage),
      },
      { path: paths.report.path, element: <ReportPage /> },
      { path: paths.analysis.path, element: <AnalysisRoute /> },
      { path: '*', element: <NotFoundView /> },
    ],
  },
];

export default routes;

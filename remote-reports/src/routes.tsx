// What the host mounts under /report (docs/architecture.md): route objects relative to the
// mount path. Translations ship with the remote and are registered as soon as it loads.
import type { RouteObject } from 'react-router-dom';
import { NotFoundView, registerTranslations } from '@portal/shared-ui';
import en from '../locales/en.json';
import de from '../locales/de.json';
import { YourReportsPage } from './features/reports/components/your-reports-page';
import { ReportsBase } from './features/reports/components/reports-base';
import { LearnerReportsPage } from './features/reports/components/learner-reports-page';

registerTranslations({ en, de });

const routes: RouteObject[] = [
  {
    element: <ReportsBase />,
    children: [
      { index: true, element: <YourReportsPage /> },
      { path: 'learner', element: <LearnerReportsPage /> },
      { path: '*', element: <NotFoundView /> },
    ],
  },
];

export default routes;

// What the host mounts under /simulation (docs/architecture.md): route objects relative to the
// mount path. Translations ship with the remote and are registered as soon as it loads.
import type { RouteObject } from 'react-router-dom';
import { NotFoundView, registerTranslations } from '@portal/shared-ui';
import en from '../locales/en.json';
import de from '../locales/de.json';
import { SimulationsPage } from './features/products/components/simulations-page';

registerTranslations({ en, de });

const routes: RouteObject[] = [
  { index: true, element: <SimulationsPage /> },
  { path: '*', element: <NotFoundView /> },
];

export default routes;

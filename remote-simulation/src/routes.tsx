// What the host mounts under /simulation and /lti/simulation (docs/architecture.md): route objects
// relative to the mount path. Translations ship with the remote and are registered as soon as it loads.
import { type RouteObject } from '@portal/shared-ui';
import { paths } from './config/paths';
import { LaunchErrorPage } from './features/launch/components/launch-error-page';
import { LaunchPage } from './features/launch/components/launch-page';
import { CategoryPage } from './features/products/components/category-page';
import { ProductsPage } from './features/products/components/products-page';
import { remoteStrings } from './config/remote';

// webpack's run-time public path: where remoteEntry.js was loaded from, and so the strings.
declare const __webpack_public_path__: string | undefined;
remoteStrings.register(typeof __webpack_public_path__ === 'string' ? __webpack_public_path__ : undefined);

const routes: RouteObject[] = [
  { index: true, element: <ProductsPage /> },
  // Static segments outrank `:productId`; anything else under the mount is the category page,
  // which answers "page not found" for a path that is not ids.
  { path: paths.launch.path, element: <LaunchPage /> },
  { path: paths.launchError.path, element: <LaunchErrorPage /> },
  { path: paths.category.path, element: <CategoryPage /> },
];

export default routes;

// The portal's one door to react-router (docs/architecture.md, "Router facade"). A shared module
// cannot be tree-shaken, because any remote may use any export; shared-ui is the shared singleton
// and this list is the part of react-router the portal uses, so the rest never reaches a browser.
// The router's contexts live in this one module copy: apps and remotes must import from here,
// never from react-router itself (eslint.config.js enforces it). Add a name here when you need it.
export {
  createBrowserRouter,
  isRouteErrorResponse,
  Link,
  Navigate,
  NavLink,
  Outlet,
  RouterProvider,
  useInRouterContext,
  useLocation,
  useNavigate,
  useParams,
  useRouteError,
  useRoutes,
  useSearchParams,
  type InitialEntry,
  type LinkProps,
  type RouteObject,
} from 'react-router-dom';

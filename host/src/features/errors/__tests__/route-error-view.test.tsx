import { screen } from '@testing-library/react';
import type { RouteObject } from '@portal/shared-ui';
import { createAppRoutes } from '../../../app/router';
import { setupTestServer } from '../../../testing/msw-server';
import { renderApp } from '../../../testing/render-app';
import { RouteErrorView, type RouteErrorViewProps } from '../components/route-error-view';

const server = setupTestServer();

function Throws({ error }: { error: unknown }): never {
  throw error;
}

/** A route tree whose page throws `error`, with the error element `errorElement`. */
const failing = (path: string, error: unknown, errorElement = <RouteErrorView />) => [
  { path, errorElement, element: <Throws error={error} /> },
];

describe('RouteErrorView', () => {
  beforeEach(() => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
  });

  it('shows the router default for a route response: "Unexpected Application Error!" with status and text', () => {
    // The shape of the router's ErrorResponse (what `data()`/a loader's 4xx/5xx throws).
    const response = { status: 503, statusText: 'Service Unavailable', internal: false, data: null };
    renderApp({ server, route: '/broken', routes: failing('/broken', response) });

    expect(screen.getByRole('heading', { name: 'Unexpected Application Error!' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: '503 Service Unavailable' })).toBeInTheDocument();
  });

  it('shows "Something went wrong" for anything thrown while rendering, and logs it', () => {
    const error = new Error('page bug');
    renderApp({ server, route: '/broken', routes: failing('/broken', error) });

    expect(screen.getByRole('heading', { name: 'Something went wrong' })).toBeInTheDocument();
    expect(screen.getByText('If the problem persists, please contact your administrator.')).toBeInTheDocument();
    expect(console.error).toHaveBeenCalledWith('Route error', error);
  });

  it('under /lti, shows the generic error page with a link back to the launch, its query kept', () => {
    renderApp({
      server,
      route: '/lti/report/abc?launchId=L-7&productId=1',
      routes: failing('/lti/report/*', new Error('remote bug'), <RouteErrorView ltiHome="/lti/launch" />),
    });

    expect(screen.getByRole('heading', { name: 'Something went wrong' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to home page' })).toHaveAttribute('href', '/lti/launch?launchId=L-7&productId=1');
  });

  it('is the error element of every /lti route in the portal’s route tree', () => {
    const ltiRoutes: { path: string; ltiHome: unknown }[] = [];
    const walk = (routes: RouteObject[]) =>
      routes.forEach((route) => {
        if (route.path?.startsWith('/lti')) {
          const element = route.errorElement as { props?: RouteErrorViewProps } | undefined;
          ltiRoutes.push({ path: route.path, ltiHome: element?.props?.ltiHome });
        }
        if (route.children) walk(route.children);
      });
    walk(createAppRoutes());

    expect(ltiRoutes.map((r) => r.path).sort()).toEqual([
      '/lti/auth/callback',
      '/lti/deep-link',
      '/lti/error',
      '/lti/launch',
      '/lti/open',
      '/lti/report/*',
      '/lti/simulation/*',
    ]);
    expect(ltiRoutes.every((r) => r.ltiHome === '/lti/launch')).toBe(true);
  });
});

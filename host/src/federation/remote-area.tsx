import { Component, useCallback, useEffect, useState, type ReactNode } from 'react';
import { PageSpinner, type RouteObject, UnavailableView, useRoutes } from '@portal/shared-ui';
import {
  IncompatibleRemoteError,
  loadedRemoteRoutes,
  loadRemoteRoutes,
  type RemoteName,
} from './remotes';
import { NeedsUpdateView } from './needs-update-view';

export type LoadRemoteRoutes = (name: RemoteName, attempt: number) => Promise<RouteObject[]>;

interface BoundaryProps {
  name: RemoteName;
  onRetry: () => void;
  children: ReactNode;
}

/** One per remote: whatever the remote throws while rendering stays inside its area. */
class RemoteErrorBoundary extends Component<BoundaryProps, { error: unknown }> {
  override state: { error: unknown } = { error: null };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  override componentDidCatch(error: unknown) {
    console.error(`Remote ${this.props.name} failed while rendering`, error);
  }

  override render() {
    if (this.state.error) return <UnavailableView onRetry={this.props.onRetry} />;
    return this.props.children;
  }
}

function RemoteRouteTree({ routes }: { routes: RouteObject[] }) {
  return useRoutes(routes);
}

type State =
  | { status: 'loading' }
  | { status: 'ready'; routes: RouteObject[] }
  | { status: 'failed' }
  | { status: 'incompatible'; error: IncompatibleRemoteError };

/**
 * Mounts a remote's route tree under the current route (`/simulation/*` etc.). A remote that is
 * down, has a bad entry or a missing chunk shows the "unavailable" view; Retry loads it again.
 */
export function RemoteArea({
  name,
  load = loadRemoteRoutes,
  loaded = loadedRemoteRoutes,
}: {
  name: RemoteName;
  load?: LoadRemoteRoutes;
  /** A route tree loaded before (preloaded on hover, or visited): rendered at once. */
  loaded?: (name: RemoteName) => RouteObject[] | undefined;
}) {
  const [attempt, setAttempt] = useState(0);
  const [state, setState] = useState<State>(() => {
    const routes = loaded(name);
    return routes ? { status: 'ready', routes } : { status: 'loading' };
  });

  useEffect(() => {
    const routes = attempt === 0 ? loaded(name) : undefined;
    if (routes) {
      setState((previous) =>
        previous.status === 'ready' && previous.routes === routes
          ? previous
          : { status: 'ready', routes },
      );
      return undefined;
    }
    let current = true;
    setState({ status: 'loading' });
    load(name, attempt).then(
      (routes) => current && setState({ status: 'ready', routes }),
      (error: unknown) => {
        if (!current) return;
        if (error instanceof IncompatibleRemoteError) {
          // Both versions in the log: what the remote was built against, what this page has.
          console.error(
            `Remote ${name} needs an update: built for ${error.sharedModule} ${error.required}, this portal provides ${error.provided}`,
          );
          setState({ status: 'incompatible', error });
          return;
        }
        console.error(`Remote ${name} is unavailable`, error);
        setState({ status: 'failed' });
      },
    );
    return () => {
      current = false;
    };
  }, [name, attempt, load, loaded]);

  const retry = useCallback(() => setAttempt((n) => n + 1), []);

  if (state.status === 'loading') return <PageSpinner />;
  if (state.status === 'failed') return <UnavailableView onRetry={retry} />;
  // Retrying cannot help: the remote (or the host) must be redeployed.
  if (state.status === 'incompatible') return <NeedsUpdateView />;
  return (
    <RemoteErrorBoundary key={attempt} name={name} onRetry={retry}>
      <RemoteRouteTree routes={state.routes} />
    </RemoteErrorBoundary>
  );
}

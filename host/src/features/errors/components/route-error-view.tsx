import { useEffect } from 'react';
import {
  ErrorFallbackView,
  isRouteErrorResponse,
  SomethingWentWrongView,
  useLocation,
  useRouteError,
  useTranslation,
} from '@portal/shared-ui';
import { DataErrorView, isNotFoundLike } from '../../../components/data-error-view';

export interface RouteErrorViewProps {
  /**
   * Under /lti there is no sidebar to go anywhere else: any error shows the generic error page
   * with a link back to the launch (its query kept, so the launch can start again).
   */
  ltiHome?: string;
}

/** The router's error element: route responses, data failures, then anything else. */
export function RouteErrorView({ ltiHome }: RouteErrorViewProps = {}) {
  const error = useRouteError();
  const { t } = useTranslation();
  const { search } = useLocation();

  useEffect(() => {
    console.error('Route error', error);
  }, [error]);

  if (ltiHome !== undefined) return <SomethingWentWrongView homeTo={`${ltiHome}${search}`} />;

  if (isRouteErrorResponse(error)) {
    return (
      <main>
        <h2>{t('routeError.unexpected')}</h2>
        <h3>
          {error.status} {error.statusText}
        </h3>
      </main>
    );
  }
  if (isNotFoundLike(error)) return <DataErrorView error={error} />;
  return <ErrorFallbackView />;
}

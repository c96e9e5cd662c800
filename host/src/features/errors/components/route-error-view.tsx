import { useEffect } from 'react';
import {
  ErrorFallbackView,
  isRouteErrorResponse,
  useRouteError,
  useTranslation,
} from '@portal/shared-ui';
import { DataErrorView, isNotFoundLike } from '../../../components/data-error-view';

/** The router's error element: route responses, data failures, then anything else. */
export function RouteErrorView() {
  const error = useRouteError();
  const { t } = useTranslation();

  useEffect(() => {
    console.error('Route error', error);
  }, [error]);

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

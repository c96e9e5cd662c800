import { useTranslation } from 'react-i18next';
import { NotFoundView, usePageTitle } from '@portal/shared-ui';

export function PageNotFoundPage() {
  const { t } = useTranslation();
  usePageTitle(t('pageNotFound'));
  return <NotFoundView />;
}

import { NotFoundView, usePageTitle, useTranslation } from '@portal/shared-ui';

export function PageNotFoundPage() {
  const { t } = useTranslation();
  usePageTitle(t('pageNotFound'));
  return <NotFoundView />;
}

import { Link, usePageTitle, useTranslation } from '@portal/shared-ui';
import { paths } from '../../../config/paths';

export function UnderConstructionPage() {
  const { t } = useTranslation();
  usePageTitle(t('underConstruction.title'));
  return (
    <>
      <h1>{t('underConstruction.title')}</h1>
      <p>{t('underConstruction.message')}</p>
      <Link to={paths.home.getHref()}>{t('underConstruction.home')}</Link>
    </>
  );
}

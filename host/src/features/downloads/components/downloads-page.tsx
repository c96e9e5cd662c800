import { useTranslation } from 'react-i18next';
import { usePageTitle } from '@portal/shared-ui';

/** Simulation installers per user; the download list arrives with the downloads issue. */
export function DownloadsPage() {
  const { t } = useTranslation();
  usePageTitle(t('downloads.title'));
  return (
    <>
      <h1>{t('downloads.title')}</h1>
      <section aria-labelledby="no-downloads">
        <h2 id="no-downloads">{t('downloads.noDownloadsHeading')}</h2>
        <p>{t('downloads.noDownloadsMessage')}</p>
      </section>
    </>
  );
}

import { NewTabLink, usePageTitle, useTranslation } from '@portal/shared-ui';
import { useRuntimeConfig } from '../../../config/runtime-config';
import { brightspaceHomeHref } from '../../../config/paths';

export function SelfAssessmentPage() {
  const { t } = useTranslation();
  const { brightspaceHost } = useRuntimeConfig();
  usePageTitle(t('selfAssessment.title'));
  return (
    <>
      <h1>{t('selfAssessment.title')}</h1>
      <p>{t('selfAssessment.intro')}</p>
      {brightspaceHost ? (
        <NewTabLink href={brightspaceHomeHref(brightspaceHost)}>
          {t('selfAssessment.open')}
        </NewTabLink>
      ) : (
        <p>{t('brightspaceNotLinked')}</p>
      )}
    </>
  );
}

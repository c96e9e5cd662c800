import { usePageTitle, useTranslation } from '@portal/shared-ui';
import { useRuntimeConfig } from '../../../app/runtime-config';
import { brightspaceHomeHref } from '../../../app/paths';

export function SelfAssessmentPage() {
  const { t } = useTranslation();
  const { brightspaceHost } = useRuntimeConfig();
  usePageTitle(t('selfAssessment.title'));
  return (
    <>
      <h1>{t('selfAssessment.title')}</h1>
      <p>{t('selfAssessment.intro')}</p>
      {brightspaceHost ? (
        <a href={brightspaceHomeHref(brightspaceHost)} target="_blank" rel="noopener noreferrer">
          {t('selfAssessment.open')}
        </a>
      ) : (
        <p>{t('brightspaceNotLinked')}</p>
      )}
    </>
  );
}

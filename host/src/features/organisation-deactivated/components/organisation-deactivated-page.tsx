import { useEffect } from 'react';
import styled from 'styled-components';
import type { OrganisationDeactivated } from '@portal/contract';
import { useAuth } from '@portal/shared-auth';
import { Button, usePageTitle, useTranslation } from '@portal/shared-ui';
import { CenteredPage } from '../../../components/centered-page';
import { SUPPORT_EMAIL } from '../../../components/support-contact';

const Actions = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: ${({ theme }) => theme.space.md};
  margin-top: ${({ theme }) => theme.space.lg};
`;

export interface OrganisationDeactivatedPageProps {
  refusal: OrganisationDeactivated;
  /** Loads the portal again; a reactivated organisation's member is then let in. */
  reload?: () => void;
}

/**
 * What a member of a deactivated organisation sees instead of the portal: that it is
 * deactivated, whom to ask (its administrators, its main contact, support), in their language.
 */
export function OrganisationDeactivatedPage({
  refusal,
  reload = () => window.location.reload(),
}: OrganisationDeactivatedPageProps) {
  const { t, i18n } = useTranslation();
  const { logout } = useAuth();
  const { organisation, language } = refusal;
  usePageTitle(t('organisationDeactivated.title'));

  useEffect(() => {
    // whoami never answered, so the language sync had no user: the refusal names their language.
    if (language && language !== i18n.resolvedLanguage) void i18n.changeLanguage(language);
  }, [language, i18n]);

  return (
    <CenteredPage>
      <h1>{t('organisationDeactivated.title')}</h1>
      <p>{t('organisationDeactivated.explanation', { name: organisation.name })}</p>
      <h2>{t('organisationDeactivated.contactHeading')}</h2>
      {organisation.administrators.length > 0 && (
        <>
          <p>{t('organisationDeactivated.administrators')}</p>
          <ul>
            {organisation.administrators.map((admin) => (
              <li key={admin.email}>
                {admin.name} (<a href={`mailto:${admin.email}`}>{admin.email}</a>)
              </li>
            ))}
          </ul>
        </>
      )}
      {organisation.mainContact && (
        <p>{t('organisationDeactivated.mainContact', { contact: organisation.mainContact })}</p>
      )}
      <p>
        {t('organisationDeactivated.support')} <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a>
      </p>
      <Actions>
        <Button onClick={reload}>{t('organisationDeactivated.tryAgain')}</Button>
        <Button variant="secondary" onClick={() => void logout()}>
          {t('organisationDeactivated.logout')}
        </Button>
      </Actions>
    </CenteredPage>
  );
}

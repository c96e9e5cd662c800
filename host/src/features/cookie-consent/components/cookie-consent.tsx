import { useState } from 'react';
import styled from 'styled-components';
import { useAuth } from '@portal/shared-auth';
import { Button, ErrorBanner, Modal, useTranslation } from '@portal/shared-ui';
import { useUpdateCookiePreference } from '../api/update-cookie-preference';

const Details = styled.details`
  margin: ${({ theme }) => `${theme.space.md} 0`};
  padding: ${({ theme }) => theme.space.md};
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radii.sm};

  summary {
    cursor: pointer;
    font-weight: ${({ theme }) => theme.fontWeights.medium};
  }
`;

const Actions = styled.div`
  display: flex;
  flex-wrap: wrap;
  justify-content: flex-end;
  gap: ${({ theme }) => theme.space.sm};
`;

export interface CookieConsentProps {
  userId: string;
  /** True when the stored preference does not allow essential cookies (or is unknown). */
  needsConsent: boolean;
}

/**
 * docs/requirements.md#reusable-pieces, #cookie-consent: cannot be dismissed without a choice. Allow saves true; Deny saves false and signs
 * out. The dialog closes once the save settles, whatever its outcome; a failed save is reported.
 */
export function CookieConsent({ userId, needsConsent }: CookieConsentProps) {
  const { t } = useTranslation();
  const { logout } = useAuth();
  const save = useUpdateCookiePreference(userId);
  const [closed, setClosed] = useState(false);
  const [saving, setSaving] = useState(false);
  const [failed, setFailed] = useState(false);

  const choose = async (allow: boolean) => {
    setSaving(true);
    const saved = await save(allow);
    setSaving(false);
    setClosed(true);
    setFailed(!saved);
    if (!allow) await logout();
  };

  return (
    <>
      {failed && <ErrorBanner heading={t('cookieConsent.errorLabel')} errors={[t('cookieConsent.errorMessage')]} />}
      <Modal open={needsConsent && !closed} title={t('cookieConsent.heading')} dismissible={false}>
        <p>{t('cookieConsent.explanation')}</p>
        <Details>
          <summary>{t('cookieConsent.preferencesHeading')}</summary>
          <h3>{t('cookieConsent.essentialHeading')}</h3>
          <p>{t('cookieConsent.essentialText')}</p>
        </Details>
        <Actions>
          <Button variant="secondary" disabled={saving} onClick={() => void choose(false)}>
            {t('cookieConsent.denyAll')}
          </Button>
          <Button data-autofocus disabled={saving} onClick={() => void choose(true)}>
            {t('cookieConsent.allowAll')}
          </Button>
        </Actions>
      </Modal>
    </>
  );
}

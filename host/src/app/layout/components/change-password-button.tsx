import { useState } from 'react';
import styled from 'styled-components';
import { useAuth } from '@portal/shared-auth';
import { useLocation, useTranslation } from '@portal/shared-ui';

/** Looks like the sidebar's links: it leaves the page, but through a sign-in redirect, not a URL. */
const LinkLikeButton = styled.button`
  display: block;
  width: 100%;
  padding: ${({ theme }) => `${theme.space.sm} ${theme.space.md}`};
  border: 0;
  border-radius: ${({ theme }) => theme.radii.sm};
  background: none;
  color: ${({ theme }) => theme.colors.text};
  font: inherit;
  text-align: left;
  cursor: pointer;

  &:hover {
    background: ${({ theme }) => theme.colors.surfaceMuted};
    color: ${({ theme }) => theme.colors.primary};
  }
`;

const Failure = styled.p`
  margin: ${({ theme }) => `${theme.space.xs} ${theme.space.md} 0`};
  color: ${({ theme }) => theme.colors.danger};
  font-size: ${({ theme }) => theme.fontSizes.sm};
`;

/**
 * "Change password": Keycloak's UPDATE_PASSWORD action at the identity provider, which brings the
 * user back to this very page (path, query and hash), in the portal's language.
 */
export function ChangePasswordButton({ language }: { language: string | undefined }) {
  const { t } = useTranslation();
  const { changePassword } = useAuth();
  const { pathname, search, hash } = useLocation();
  const [failed, setFailed] = useState(false);

  const start = () => {
    setFailed(false);
    changePassword({ returnPath: `${pathname}${search}${hash}`, ...(language ? { language } : {}) }).catch(
      (cause: unknown) => {
        console.warn('Could not start the password change', cause);
        setFailed(true);
      },
    );
  };

  return (
    <>
      <LinkLikeButton type="button" onClick={start}>
        {t('layout.changePassword')}
      </LinkLikeButton>
      {failed && <Failure role="alert">{t('layout.changePasswordFailed')}</Failure>}
    </>
  );
}

import { forwardRef } from 'react';
import styled from 'styled-components';
import { useAuth, usePermissions } from '@portal/shared-auth';
import { Link, NavLink, NewTabLink, useProduct, useTranslation } from '@portal/shared-ui';
import { useRuntimeConfig } from '../../../config/runtime-config';
import { deviceLoginHref, brightspaceHomeHref, paths } from '../../../config/paths';
import { preloadOnIntent } from '../../../federation/use-remote-preload';
import { LOGOUT_INTENT_STATE } from '../../../features/logout/lib/logout-intent';
import { NotificationsButton } from '../../../features/notifications/components/notifications-button';
import { ChangePasswordButton } from './change-password-button';

export const SIDEBAR_WIDTH = '260px';

const Panel = styled.aside<{ $open: boolean }>`
  position: fixed;
  inset: 0 auto 0 0;
  z-index: ${({ theme }) => theme.zIndices.sidebar};
  width: ${SIDEBAR_WIDTH};
  max-width: 85vw;
  display: flex;
  flex-direction: column;
  gap: ${({ theme }) => theme.space.md};
  padding: ${({ theme }) => theme.space.lg};
  overflow-y: auto;
  background: ${({ theme }) => theme.colors.surface};
  border-right: 1px solid ${({ theme }) => theme.colors.border};
  box-shadow: ${({ theme, $open }) => ($open ? theme.shadows.lg : 'none')};
  transform: translateX(${({ $open }) => ($open ? '0' : '-100%')});
  visibility: ${({ $open }) => ($open ? 'visible' : 'hidden')};
  transition: transform 0.2s ease, visibility 0.2s;

  ${({ theme }) => theme.media.lg} {
    transform: none;
    visibility: visible;
    box-shadow: none;
  }

  @media (prefers-reduced-motion: reduce) {
    transition: none;
  }
`;

const Logo = styled(Link)`
  font-size: ${({ theme }) => theme.fontSizes.lg};
  font-weight: ${({ theme }) => theme.fontWeights.bold};
  color: ${({ theme }) => theme.colors.primary};
  text-decoration: none;
`;

const Welcome = styled.p`
  margin: 0;
  color: ${({ theme }) => theme.colors.textMuted};
`;

const NavList = styled.ul`
  list-style: none;
  margin: 0;
  padding: 0;

  a {
    display: block;
    padding: ${({ theme }) => `${theme.space.sm} ${theme.space.md}`};
    border-radius: ${({ theme }) => theme.radii.sm};
    color: ${({ theme }) => theme.colors.text};
    text-decoration: none;
  }

  a:hover,
  a.active {
    background: ${({ theme }) => theme.colors.surfaceMuted};
    color: ${({ theme }) => theme.colors.primary};
  }
`;

const SectionTitle = styled.h2`
  margin: 0;
  font-size: ${({ theme }) => theme.fontSizes.sm};
  text-transform: uppercase;
  letter-spacing: 0.04em;
  color: ${({ theme }) => theme.colors.textMuted};
`;

const Footer = styled.div`
  margin-top: auto;
  padding-top: ${({ theme }) => theme.space.md};
  border-top: 1px solid ${({ theme }) => theme.colors.border};
`;

export interface SidebarProps {
  id: string;
  open: boolean;
}

export const Sidebar = forwardRef<HTMLElement, SidebarProps>(function Sidebar({ id, open }, ref) {
  const { t } = useTranslation();
  const { user } = useAuth();
  const can = usePermissions();
  const { productName } = useProduct();
  const { oidc, brightspaceHost } = useRuntimeConfig();
  if (!user) return null;

  return (
    <Panel id={id} ref={ref} $open={open} aria-label={t('layout.sidebar')}>
      <Logo to={paths.simulation.getHref()}>{productName}</Logo>
      <Welcome>{t('layout.welcome', { firstName: user.firstName, lastName: user.lastName })}</Welcome>
      <NotificationsButton />

      <nav aria-label={t('layout.mainNavigation')}>
        <NavList>
          <li>
            <NavLink to={paths.simulation.getHref()} {...preloadOnIntent('simulation')}>{t('layout.simulations')}</NavLink>
          </li>
          <li>
            <NavLink to={paths.report.getHref()} {...preloadOnIntent('reports')}>{t('layout.reports')}</NavLink>
          </li>
          <li>
            <NavLink to={paths.support.getHref()}>{t('layout.support')}</NavLink>
          </li>
          <li>
            <NavLink to={paths.downloads.getHref(user.id)}>{t('layout.downloads')}</NavLink>
          </li>
        </NavList>
      </nav>

      <nav aria-label={t('layout.accountNavigation')}>
        <NavList>
          <li>
            <NavLink to={paths.preference.getHref(user.id)}>{t('layout.preferences')}</NavLink>
          </li>
          {can(['global.client_access_admin_section']) && (
            <li>
              <NavLink to={paths.admin.getHref()} {...preloadOnIntent('admin')}>{t('layout.administration')}</NavLink>
            </li>
          )}
          <li>
            <NewTabLink href={deviceLoginHref(oidc.authority, user.language)}>
              {t('layout.account')}
            </NewTabLink>
          </li>
          <li>
            <ChangePasswordButton language={user.language} />
          </li>
          <li>
            <NavLink to={paths.logout.getHref()} state={LOGOUT_INTENT_STATE}>{t('layout.logout')}</NavLink>
          </li>
        </NavList>
      </nav>

      <section aria-labelledby={`${id}-self-assessment`}>
        <SectionTitle id={`${id}-self-assessment`}>{t('layout.selfAssessment')}</SectionTitle>
        {brightspaceHost ? (
          <NavList>
            <li>
              <NewTabLink href={brightspaceHomeHref(brightspaceHost)}>
                {t('layout.openBrightspace')}
              </NewTabLink>
            </li>
          </NavList>
        ) : (
          <p>{t('brightspaceNotLinked')}</p>
        )}
      </section>

      <Footer>
        <Link to={paths.logout.getHref()} state={LOGOUT_INTENT_STATE}>{t('layout.logout')}</Link>
      </Footer>
    </Panel>
  );
});

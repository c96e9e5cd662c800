import { useRef } from 'react';
import styled from 'styled-components';
import { useAuth } from '@portal/shared-auth';
import { Outlet, PageSpinner, useTranslation, VisuallyHidden } from '@portal/shared-ui';
import { useRuntimeConfig } from '../../../config/runtime-config';
import { useCookiePreference } from '../../../features/cookie-consent/api/get-cookie-preference';
import { CookieConsent } from '../../../features/cookie-consent/components/cookie-consent';
import { useBrightspaceGuard } from '../../../features/brightspace/use-brightspace-guard';
import { usePreloadRemoteEntries } from '../../../federation/use-remote-preload';
import { useSlideOver } from '../use-slide-over';
import { RouteAnnouncer } from './route-announcer';
import { Sidebar, SIDEBAR_WIDTH } from './sidebar';
import { SkipLink } from './skip-link';

const TopBar = styled.header`
  display: flex;
  align-items: center;
  padding: ${({ theme }) => `${theme.space.sm} ${theme.space.md}`};
  background: ${({ theme }) => theme.colors.surface};
  border-bottom: 1px solid ${({ theme }) => theme.colors.border};

  ${({ theme }) => theme.media.lg} {
    display: none;
  }
`;

const MenuButton = styled.button`
  min-height: 40px;
  padding: ${({ theme }) => `${theme.space.sm} ${theme.space.md}`};
  border: 1px solid ${({ theme }) => theme.colors.borderStrong};
  border-radius: ${({ theme }) => theme.radii.sm};
  background: ${({ theme }) => theme.colors.surface};
  color: ${({ theme }) => theme.colors.text};
  font: inherit;
  cursor: pointer;
`;

const Backdrop = styled.div`
  position: fixed;
  inset: 0;
  z-index: ${({ theme }) => theme.zIndices.sidebar - 1};
  background: ${({ theme }) => theme.colors.backdrop};

  ${({ theme }) => theme.media.lg} {
    display: none;
  }
`;

const Main = styled.main`
  padding: ${({ theme }) => theme.space.lg};
  padding-bottom: ${({ theme }) => theme.space.xxl};

  ${({ theme }) => theme.media.lg} {
    margin-left: ${SIDEBAR_WIDTH};
    padding: ${({ theme }) => `${theme.space.xl} ${theme.space.xxl}`};
  }

  /* Focused by the skip link and on navigation only to start reading there, not as a control. */
  &:focus,
  & h1:focus {
    outline: none;
  }
`;

/**
 * The version label: fixed bottom right on wide screens; on phones it follows the content, where a
 * fixed label would cover the last line.
 */
const Footer = styled.footer`
  padding: ${({ theme }) => `0 ${theme.space.md} ${theme.space.sm}`};
  text-align: right;
  font-size: ${({ theme }) => theme.fontSizes.sm};
  color: ${({ theme }) => theme.colors.textMuted};

  ${({ theme }) => theme.media.lg} {
    position: fixed;
    right: ${({ theme }) => theme.space.sm};
    bottom: ${({ theme }) => theme.space.xs};
    padding: 0;
  }
`;

const SIDEBAR_ID = 'portal-sidebar';
const MAIN_ID = 'main-content';

/** The main authenticated area (docs/requirements.md#main-area): sidebar, content, cookie consent, version label. */
export function Layout() {
  const { t } = useTranslation();
  const { user } = useAuth();
  const { version } = useRuntimeConfig();
  const cookiePreference = useCookiePreference(user?.id);
  const slideOver = useSlideOver();
  const mainRef = useRef<HTMLElement>(null);
  useBrightspaceGuard();
  usePreloadRemoteEntries();

  if (!user || (!cookiePreference.data && !cookiePreference.error)) return <PageSpinner />;

  return (
    <>
      <SkipLink targetId={MAIN_ID} targetRef={mainRef} />
      <TopBar>
        <MenuButton
          type="button"
          ref={slideOver.buttonRef}
          aria-expanded={slideOver.open}
          aria-controls={SIDEBAR_ID}
          onClick={slideOver.toggle}
        >
          {t('layout.menu')}
        </MenuButton>
      </TopBar>
      {slideOver.open && <Backdrop onClick={() => slideOver.close(false)} />}
      <Sidebar id={SIDEBAR_ID} ref={slideOver.panelRef} open={slideOver.open} />
      <Main id={MAIN_ID} ref={mainRef} tabIndex={-1}>
        <CookieConsent
          userId={user.id}
          needsConsent={cookiePreference.data?.allowEssentialCookies !== true}
        />
        <Outlet />
      </Main>
      <RouteAnnouncer mainRef={mainRef} />
      <Footer>
        <VisuallyHidden>{t('layout.version')} </VisuallyHidden>
        <span>{version}</span>
      </Footer>
    </>
  );
}

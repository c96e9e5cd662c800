import { useEffect, useRef, type KeyboardEvent } from 'react';
import styled from 'styled-components';
import type { UserNotification } from '@portal/contract';
import { Link, useFormatDate, useTranslation, VisuallyHidden } from '@portal/shared-ui';
import { reportHref } from '../../../config/paths';
import { useMarkNotificationRead } from '../api/mark-notification-read';

const Panel = styled.div`
  position: absolute;
  z-index: 1;
  top: calc(100% + ${({ theme }) => theme.space.xs});
  left: 0;
  width: 100%;
  min-width: 220px;
  max-height: 60vh;
  overflow-y: auto;
  padding: ${({ theme }) => theme.space.xs};
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radii.sm};
  background: ${({ theme }) => theme.colors.surface};
  box-shadow: ${({ theme }) => theme.shadows.lg};

  &:focus {
    outline: none;
  }
`;

const List = styled.ul`
  list-style: none;
  margin: 0;
  padding: 0;
`;

const Item = styled(Link)<{ $unread: boolean }>`
  display: block;
  padding: ${({ theme }) => theme.space.sm};
  border-radius: ${({ theme }) => theme.radii.sm};
  color: ${({ theme }) => theme.colors.text};
  font-weight: ${({ theme, $unread }) => ($unread ? theme.fontWeights.bold : 'normal')};
  text-decoration: none;

  &:hover,
  &:focus {
    background: ${({ theme }) => theme.colors.surfaceMuted};
    color: ${({ theme }) => theme.colors.primary};
  }
`;

const When = styled.time`
  display: block;
  font-size: ${({ theme }) => theme.fontSizes.sm};
  font-weight: normal;
  color: ${({ theme }) => theme.colors.textMuted};
`;

const Note = styled.p`
  margin: 0;
  padding: ${({ theme }) => theme.space.sm};
  color: ${({ theme }) => theme.colors.textMuted};
`;

export interface NotificationsPanelProps {
  id: string;
  /** undefined while loading. */
  notifications: UserNotification[] | undefined;
  failed: boolean;
  onClose: (returnFocus: boolean) => void;
}

const NEXT_KEYS: Record<string, (index: number, count: number) => number> = {
  ArrowDown: (i, n) => (i + 1) % n,
  ArrowUp: (i, n) => (i - 1 + n) % n,
  Home: () => 0,
  End: (_, n) => n - 1,
};

/**
 * The open list: each notification links to its report and marks itself read when followed.
 * Focus starts on the first one; the arrow keys, Home and End move between them.
 */
export function NotificationsPanel({ id, notifications, failed, onClose }: NotificationsPanelProps) {
  const { t } = useTranslation();
  const formatDate = useFormatDate();
  const markRead = useMarkNotificationRead();
  const panelRef = useRef<HTMLDivElement>(null);
  const links = () => Array.from(panelRef.current?.querySelectorAll<HTMLAnchorElement>('a[href]') ?? []);
  const hasItems = Boolean(notifications?.length);

  useEffect(() => {
    const panel = panelRef.current;
    (panel?.querySelector<HTMLElement>('a[href]') ?? panel)?.focus();
  }, [hasItems]);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape') {
      // The small-screen sidebar closes on Escape too: this Escape is the list's alone.
      event.stopPropagation();
      onClose(true);
      return;
    }
    const next = NEXT_KEYS[event.key];
    const all = links();
    if (!next || all.length === 0) return;
    event.preventDefault();
    const current = all.indexOf(document.activeElement as HTMLAnchorElement);
    all[next(current, all.length)]?.focus();
  };

  let content;
  if (failed && !notifications) content = <Note role="alert">{t('notifications.loadFailed')}</Note>;
  else if (!notifications) content = <Note>{t('notifications.loading')}</Note>;
  else if (notifications.length === 0) content = <Note>{t('notifications.empty')}</Note>;
  else {
    content = (
      <List>
        {notifications.map((n) => (
          <li key={n.id}>
            <Item
              to={reportHref(n.reportId)}
              $unread={!n.read}
              onClick={() => {
                if (!n.read) void markRead(n.id);
                onClose(false);
              }}
            >
              {!n.read && <VisuallyHidden>{t('notifications.unreadItem')} </VisuallyHidden>}
              {t('notifications.reportFeedback', { report: n.reportName })}
              <When dateTime={n.createdAt}>{formatDate(n.createdAt, 'dayTime')}</When>
            </Item>
          </li>
        ))}
      </List>
    );
  }

  return (
    <Panel id={id} ref={panelRef} role="region" aria-label={t('notifications.heading')} tabIndex={-1} onKeyDown={onKeyDown}>
      {content}
    </Panel>
  );
}

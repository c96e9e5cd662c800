import { lazy, Suspense, useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import styled from 'styled-components';
import { usePermissions } from '@portal/shared-auth';
import { useLocation, useTranslation } from '@portal/shared-ui';
import { useMyNotifications } from '../api/my-notifications';

// The list is opened now and then; the first visit downloads only the button and its count.
const loadPanel = () => import('./notifications-panel');
const NotificationsPanel = lazy(async () => ({ default: (await loadPanel()).NotificationsPanel }));

// Kept short: every first visit downloads these rules.
const Toggle = styled.button`
  display: flex;
  gap: ${({ theme }) => theme.space.sm};
  width: 100%;
  padding: ${({ theme }) => `${theme.space.sm} ${theme.space.md}`};
  border: 1px solid ${({ theme }) => theme.colors.borderStrong};
  border-radius: ${({ theme }) => theme.radii.sm};
  background: none;
  color: inherit;
  font: inherit;
  cursor: pointer;

  &:hover {
    background: ${({ theme }) => theme.colors.surfaceMuted};
  }
`;

const Count = styled.span`
  margin-left: auto;
  padding: 0 0.5em;
  border-radius: 1em;
  background: ${({ theme }) => theme.colors.primary};
  color: ${({ theme }) => theme.colors.onPrimary};
`;

/**
 * The learner's notifications (new educator feedback on a report): a disclosure button whose
 * name says how many are unread, opening the list below it. ArrowDown opens it too; Escape
 * closes it and returns focus here.
 */
export function NotificationsButton() {
  const { t } = useTranslation();
  const can = usePermissions();
  const allowed = can(['global.view_own_reports']);
  const { data, error, mutate } = useMyNotifications(allowed);
  const [open, setOpen] = useState(false);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const panelId = useId();
  const { pathname } = useLocation();

  // A new page is a moment the learner may expect news: ask again (SWR folds repeats within 2 s).
  useEffect(() => {
    setOpen(false);
    if (allowed) void mutate();
  }, [pathname, allowed, mutate]);

  if (!allowed) return null;
  const unread = data?.filter((n) => !n.read).length ?? 0;

  const close = (returnFocus: boolean) => {
    setOpen(false);
    if (returnFocus) buttonRef.current?.focus();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (event.key === 'ArrowDown' && !open) {
      event.preventDefault();
      setOpen(true);
    }
  };

  return (
    <div
      style={{ position: 'relative' }}
      onBlur={(event) => {
        // Tabbing (or clicking) away from the button and its list closes the list.
        if (!event.currentTarget.contains(event.relatedTarget)) setOpen(false);
      }}
    >
      <Toggle
        type="button"
        ref={buttonRef}
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        onClick={() => setOpen((o) => !o)}
        onKeyDown={onKeyDown}
        onPointerEnter={() => void loadPanel()}
        onFocus={() => void loadPanel()}
        // One name with the count, e.g. "Notifications, 2 unread"; the badge shows the number.
        aria-label={unread > 0 ? t('notifications.buttonUnread', { count: unread }) : undefined}
      >
        {t('notifications.button')}
        {unread > 0 && <Count aria-hidden="true">{unread}</Count>}
      </Toggle>
      {open && (
        <Suspense fallback={null}>
          <NotificationsPanel id={panelId} notifications={data} failed={Boolean(error)} onClose={close} />
        </Suspense>
      )}
    </div>
  );
}

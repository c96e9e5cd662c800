import { useCallback, useEffect, useState } from 'react';
import { LTI_TICKET_FRAGMENT } from '@portal/contract';
import { Button, ButtonAnchor, useTranslation } from '@portal/shared-ui';
import { paths } from '../../../config/paths';
import { requestLaunchTicket } from '../api/launch-window';

/** A ticket lives two minutes; a fresh one is fetched well before, so the link always works. */
const TICKET_REFRESH_MS = 90_000;

type Ticket = { state: 'loading' } | { state: 'ready'; ticket: string } | { state: 'failed' };

/**
 * The launch page inside a frame that cannot keep the sign-in: says so and offers "Open in a new
 * window", a plain link (keyboard, no pop-up blocker) to /lti/open with a single-use ticket in
 * its fragment. The ticket is spent by the window it opens, so a new one is fetched at once.
 */
export function LtiBlockedFrame({
  launchId,
  frameKey,
}: {
  launchId: string;
  frameKey: string | null;
}) {
  const { t } = useTranslation();
  const [ticket, setTicket] = useState<Ticket>({ state: 'loading' });
  const [opened, setOpened] = useState(false);

  const fetchTicket = useCallback(async () => {
    const answer = frameKey === null ? null : await requestLaunchTicket(launchId, frameKey);
    setTicket(answer ? { state: 'ready', ticket: answer.ticket } : { state: 'failed' });
  }, [launchId, frameKey]);

  useEffect(() => {
    void fetchTicket();
    const timer = window.setInterval(() => void fetchTicket(), TICKET_REFRESH_MS);
    return () => window.clearInterval(timer);
  }, [fetchTicket]);

  const onOpen = () => {
    setOpened(true);
    // Let the browser follow the link with this ticket first; the next click gets a new one.
    window.setTimeout(() => void fetchTicket(), 0);
  };

  return (
    <>
      <h1>{t('lti.frame.heading')}</h1>
      <p>{t('lti.frame.message')}</p>
      {ticket.state === 'failed' ? (
        <p role="alert">{t('lti.frame.expired')}</p>
      ) : ticket.state === 'ready' ? (
        <ButtonAnchor
          href={`${paths.ltiOpenWindow.getHref()}#${new URLSearchParams({ [LTI_TICKET_FRAGMENT]: ticket.ticket })}`}
          target="_blank"
          rel="noopener noreferrer"
          onClick={onOpen}
        >
          {t('lti.frame.openButton')}
        </ButtonAnchor>
      ) : (
        <Button disabled>{t('lti.frame.openButton')}</Button>
      )}
      <p role="status">{opened ? t('lti.frame.opened') : ''}</p>
    </>
  );
}

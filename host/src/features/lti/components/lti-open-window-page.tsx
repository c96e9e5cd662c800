import { useEffect, useState } from 'react';
import { LTI_TICKET_FRAGMENT, type LtiLaunchTicketRedeemed } from '@portal/contract';
import { PageSpinner, useNavigate, usePageTitle, useTranslation } from '@portal/shared-ui';
import { CenteredPage } from '../../../components/centered-page';
import { redeemLaunchTicket } from '../api/launch-window';
import { takeFragmentValue } from './take-fragment-value';

/** One redeem per ticket, however often the page's effect runs (a ticket is single use). */
const redeems = new Map<string, Promise<LtiLaunchTicketRedeemed | null>>();
const redeemOnce = (ticket: string) => {
  const pending = redeems.get(ticket) ?? redeemLaunchTicket(ticket);
  redeems.set(ticket, pending);
  return pending;
};

/**
 * /lti/open#ticket=…: the new window "Open in a new window" opens. Top level, first party: it
 * redeems the ticket (the API sets the launch's cookie here) and continues the same launch at
 * /lti/launch. The ticket leaves the address bar as soon as it is read.
 */
export function LtiOpenWindowPage() {
  const { t } = useTranslation();
  usePageTitle(t('lti.launchTitle'));
  const navigate = useNavigate();
  const [ticket] = useState(() => takeFragmentValue(LTI_TICKET_FRAGMENT));
  const [failed, setFailed] = useState(ticket === null);

  useEffect(() => {
    if (ticket === null) return;
    let live = true;
    void redeemOnce(ticket).then((redeemed) => {
      if (!live) return;
      // Only ever onwards to the launch page of this portal.
      if (redeemed?.location.startsWith('/lti/launch?')) {
        void navigate(redeemed.location, { replace: true });
      } else {
        setFailed(true);
      }
    });
    return () => {
      live = false;
    };
  }, [ticket, navigate]);

  if (!failed) return <PageSpinner />;
  return (
    <CenteredPage>
      <h1>{t('lti.frame.ticketFailedHeading')}</h1>
      <p>{t('lti.frame.ticketFailedMessage')}</p>
    </CenteredPage>
  );
}

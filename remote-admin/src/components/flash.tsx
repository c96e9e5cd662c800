import { useEffect, useState } from 'react';
import { SuccessBanner, useLocation, useNavigate, useTranslation } from '@portal/shared-ui';

/** Navigation state that carries a success message to the page a create redirects to (docs/requirements.md#saving-and-deleting). */
export interface FlashState {
  flash: string;
}

export const flashState = (message: string): FlashState => ({ flash: message });

/**
 * Shows the message a create left in the navigation state, then takes it out of the history
 * entry so that going back or reloading does not announce the success again.
 */
export function FlashBanner() {
  const { t } = useTranslation('admin');
  const location = useLocation();
  const navigate = useNavigate();
  const incoming = (location.state as Partial<FlashState> | null)?.flash;
  const [message, setMessage] = useState(incoming);
  useEffect(() => {
    if (!incoming) return;
    setMessage(incoming);
    void navigate({ pathname: location.pathname, search: location.search }, { replace: true, state: null });
  }, [incoming, location.pathname, location.search, navigate]);
  return message ? <SuccessBanner heading={t('successHeading')} messages={[message]} /> : null;
}

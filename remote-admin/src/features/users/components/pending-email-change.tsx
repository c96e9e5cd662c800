import { useState } from 'react';
import type { AdminUser } from '@portal/contract';
import { Button, ErrorBanner, SuccessBanner, useTranslation } from '@portal/shared-ui';
import { useCancelEmailChange } from '../api/cancel-email-change';

type Outcome = { kind: 'idle' } | { kind: 'cancelled'; email: string } | { kind: 'failed' };

/**
 * A new e-mail an administrator asked for that its owner has not confirmed yet: the user keeps
 * signing in with the old one until then. Administrators who may edit the user can withdraw it.
 */
export function PendingEmailChange({ user, canCancel }: { user: AdminUser; canCancel: boolean }) {
  const { t } = useTranslation('admin');
  const cancel = useCancelEmailChange(user.id, user.organisation ?? 0);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>({ kind: 'idle' });

  const withdraw = async (email: string) => {
    setBusy(true);
    setOutcome({ kind: 'idle' });
    try {
      const result = await cancel();
      setOutcome(result.isSuccess ? { kind: 'cancelled', email } : { kind: 'failed' });
    } catch (error) {
      console.error('Cancelling the e-mail change failed', error);
      setOutcome({ kind: 'failed' });
    } finally {
      setBusy(false);
    }
  };

  const cancelled = outcome.kind === 'cancelled' && (
    <SuccessBanner
      heading={t('successHeading')}
      messages={[t('emailChange.cancelled', { email: outcome.email })]}
    />
  );
  // Until the reload after the cancel arrives, the cancelled change is not shown as pending.
  const pending =
    outcome.kind === 'cancelled' && outcome.email === user.pendingEmail ? null : user.pendingEmail;
  if (!pending) return cancelled || null;
  return (
    <section aria-labelledby="pending-email-heading" style={{ margin: '1rem 0' }}>
      {cancelled}
      <h3 id="pending-email-heading">{t('emailChange.heading')}</h3>
      <p>{t('emailChange.pending', { email: pending, current: user.email })}</p>
      {outcome.kind === 'failed' && (
        <ErrorBanner
          heading={t('emailChange.errorHeading')}
          errors={[t('emailChange.failed')]}
        />
      )}
      {canCancel && (
        <Button
          variant="secondary"
          onClick={() => void withdraw(pending)}
          disabled={busy}
          aria-busy={busy}
        >
          {t('emailChange.cancel')}
        </Button>
      )}
    </section>
  );
}

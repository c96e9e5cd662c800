import { useState } from 'react';
import { INVITATION_RESEND_MINUTES, type AdminUser, type FieldErrors } from '@portal/contract';
import { Button, ErrorBanner, SuccessBanner, useFormatDate, useTranslation } from '@portal/shared-ui';
import { useResendInvitation } from '../api/resend-invitation';

type Outcome =
  | { kind: 'idle' }
  | { kind: 'sent'; message: string }
  | { kind: 'refused'; errors: FieldErrors | string[] };

/**
 * Where the user's account stands (invited until their first sign-in), and for an invited user
 * whose e-mail was lost, "Resend invitation" with a success or error banner (in the manner of docs/requirements.md#errors-and-messages).
 */
export function AccountState({ user, canResend }: { user: AdminUser; canResend: boolean }) {
  const { t } = useTranslation('admin');
  const formatDate = useFormatDate();
  const resend = useResendInvitation(user.id);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>({ kind: 'idle' });

  const send = async () => {
    setBusy(true);
    setOutcome({ kind: 'idle' });
    try {
      const result = await resend();
      if (result.isSuccess) {
        const { queued, queuedAt } = result.data;
        setOutcome({
          kind: 'sent',
          message: queued
            ? t('invitation.sent', { email: user.email })
            : t('invitation.alreadySent', {
                email: user.email,
                time: formatDate(queuedAt, 'dayTime'),
                minutes: INVITATION_RESEND_MINUTES,
              }),
        });
      } else {
        setOutcome({
          kind: 'refused',
          errors: result.isError && result.error ? result.error : [t('invitation.failed')],
        });
      }
    } catch (error) {
      console.error('Resending the invitation failed', error);
      setOutcome({ kind: 'refused', errors: [t('invitation.failed')] });
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby="account-state-heading" style={{ margin: '1rem 0' }}>
      <h3 id="account-state-heading">{t('invitation.heading')}</h3>
      <p>
        {t('user.account')}: <strong>{t(`accountStatus.${user.accountStatus}`)}</strong>
        {user.accountStatus === 'invited' && <> – {t('invitation.invitedHint')}</>}
      </p>
      {outcome.kind === 'sent' && (
        <SuccessBanner heading={t('successHeading')} messages={[outcome.message]} />
      )}
      {outcome.kind === 'refused' && (
        <ErrorBanner heading={t('invitation.errorHeading')} errors={outcome.errors} />
      )}
      {canResend && user.accountStatus === 'invited' && (
        <Button variant="secondary" onClick={() => void send()} disabled={busy} aria-busy={busy}>
          {t('invitation.resend')}
        </Button>
      )}
    </section>
  );
}

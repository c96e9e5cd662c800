import { useState } from 'react';
import type { EmailChangeConfirmed, EmailChangeRefusalCode } from '@portal/contract';
import {
  Button,
  Link,
  PageSpinner,
  useLocation,
  usePageTitle,
  useTranslation,
} from '@portal/shared-ui';
import { CenteredPage } from '../../../components/centered-page';
import { paths } from '../../../config/paths';
import { useConfirmEmailChange, useEmailChangePreview, type LinkAnswer } from '../api/email-change';

/** The token of the link: in the fragment, so it never reaches a server log or a Referer. */
const tokenOf = (hash: string) => new URLSearchParams(hash.replace(/^#/, '')).get('token') || null;

/**
 * /confirm-email#token=…: where the confirmation mail of an administrator's e-mail change leads.
 * Public (the user need not be signed in). It shows the new address and changes nothing until
 * "Confirm e-mail address" is pressed: mail scanners open links, and opening must not confirm.
 */
export function ConfirmEmailPage() {
  const { t } = useTranslation();
  usePageTitle(t('emailChange.title'));
  const token = tokenOf(useLocation().hash);
  const preview = useEmailChangePreview(token);
  const confirm = useConfirmEmailChange();
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<LinkAnswer<EmailChangeConfirmed> | null>(null);

  const submit = async () => {
    if (!token) return;
    setBusy(true);
    setOutcome(await confirm(token));
    setBusy(false);
  };

  let body: React.ReactNode;
  if (outcome?.kind === 'ok') {
    body = (
      <>
        <p role="status">{t('emailChange.confirmed', { email: outcome.data.email })}</p>
        <p>
          <Link to={paths.home.getHref()}>{t('emailChange.signIn')}</Link>
        </p>
      </>
    );
  } else if (!token) {
    body = <Refused code="invalid" />;
  } else if (!preview.data) {
    body = <PageSpinner />;
  } else if (preview.data.kind !== 'ok') {
    body = preview.data.kind === 'refused' ? <Refused code={preview.data.code} /> : <Failed />;
  } else {
    body = (
      <>
        <p>{t('emailChange.intro', { email: preview.data.data.email })}</p>
        {outcome?.kind === 'refused' && <Refused code={outcome.code} />}
        {outcome?.kind === 'failed' && <Failed />}
        <Button onClick={() => void submit()} disabled={busy} aria-busy={busy}>
          {t('emailChange.confirm')}
        </Button>
      </>
    );
  }
  return (
    <CenteredPage>
      <h1>{t('emailChange.title')}</h1>
      {body}
    </CenteredPage>
  );
}

function Refused({ code }: { code: EmailChangeRefusalCode }) {
  const { t } = useTranslation();
  return (
    <div role="alert">
      <p>{t(`emailChange.refused.${code}`)}</p>
      <p>{t('contactAdministrator')}</p>
    </div>
  );
}

function Failed() {
  const { t } = useTranslation();
  return <p role="alert">{t('emailChange.failed')}</p>;
}

import { useEffect, useId, useState } from 'react';
import type { LtiRosterSummary, LtiRosterSync } from '@portal/contract';
import { Button, useFormatDate, useTranslation } from '@portal/shared-ui';
import { useRosterSync } from '../api/get-roster-sync';
import { useStartRosterSync } from '../api/start-roster-sync';
import { InstructorPanel as Panel, PanelErrorText as ErrorText } from './instructor-panel';

/** The refusal reasons the API gives (contract: LtiRosterRefusal); others show as they are. */
const REASONS = [
  'no_seat',
  'no_email',
  'email_other_organisation',
  'email_unverified_platform',
  'linked_user_other_organisation',
  'organisation_inactive',
] as const;

export interface LtiRosterPanelProps {
  launchId: string;
  summary: LtiRosterSummary;
  /** After a sync finished: the summary (learners, last synced) is read again. */
  onSynced: () => void;
}

/**
 * "Course roster: N learners, last synced …" with **Sync now** (issue #22 point 4) for an
 * instructor whose launch's course offers NRPS. The result (or why it failed) is announced in a
 * polite live region, with the members that could not be brought in listed.
 */
export function LtiRosterPanel({ launchId, summary, onSynced }: LtiRosterPanelProps) {
  const { t } = useTranslation();
  const formatDate = useFormatDate();
  const headingId = useId();
  const start = useStartRosterSync(launchId);
  const [syncId, setSyncId] = useState<string | null>(null);
  const [startError, setStartError] = useState<string | null>(null);
  const [starting, setStarting] = useState(false);
  const { data: sync } = useRosterSync(syncId);
  const finished = sync?.status === 'done' || sync?.status === 'failed';
  const busy = starting || (syncId !== null && !finished);

  useEffect(() => {
    if (finished) onSynced();
  }, [finished, onSynced]);

  async function onSync() {
    setStarting(true);
    setStartError(null);
    const result = await start();
    setStarting(false);
    if (result.isSuccess) setSyncId(result.data.id);
    else setStartError(result.error?.launchId?.[0] ?? t('lti.roster.startFailed'));
  }

  const lastSynced = summary.lastSyncedAt
    ? t('lti.roster.lastSynced', { date: formatDate(summary.lastSyncedAt, 'dayTime') })
    : t('lti.roster.neverSynced');

  return (
    <Panel aria-labelledby={headingId}>
      <h2 id={headingId}>{t('lti.roster.heading')}</h2>
      <p>
        {t('lti.roster.summary', {
          count: summary.learners,
          course: summary.courseTitle ?? t('lti.roster.thisCourse'),
        })}{' '}
        {lastSynced}
      </p>
      <Button
        onClick={() => void onSync()}
        disabled={busy}
        aria-describedby={`${headingId}-status`}
      >
        {busy ? t('lti.roster.syncing') : t('lti.roster.syncNow')}
      </Button>
      <div id={`${headingId}-status`} role="status" aria-live="polite">
        {startError && <ErrorText>{startError}</ErrorText>}
        {busy && <p>{t('lti.roster.running')}</p>}
        {sync && finished && <SyncResult sync={sync} />}
      </div>
    </Panel>
  );
}

function SyncResult({ sync }: { sync: LtiRosterSync }) {
  const { t } = useTranslation();
  if (sync.status === 'failed') {
    return (
      <ErrorText>
        {t('lti.roster.failed')} {sync.error}
      </ErrorText>
    );
  }
  const reasonOf = (reason: string) =>
    (REASONS as readonly string[]).includes(reason) ? t(`lti.roster.reason.${reason}`) : reason;
  return (
    <>
      <p>
        {t('lti.roster.result', {
          added: sync.added,
          reactivated: sync.reactivated,
          deactivated: sync.deactivated,
          unchanged: sync.unchanged,
        })}
      </p>
      {sync.refused.length > 0 && (
        <>
          <p>{t('lti.roster.refusedHeading', { count: sync.refused.length })}</p>
          <ul>
            {sync.refused.map((r, i) => (
              // Names need not be unique (two "Alex Smith"s); the position keeps the keys apart.
              <li key={`${i}-${r.name}`}>
                {r.name}: {reasonOf(r.reason)}
              </li>
            ))}
          </ul>
        </>
      )}
    </>
  );
}

import { useState } from 'react';
import type { AdminUser, LicenseBlock } from '@portal/contract';
import { usePermissions } from '@portal/shared-auth';
import {
  Button,
  ConfirmDialog,
  ErrorBanner,
  StatusPill,
  SuccessBanner,
  usePagedListState,
  useTranslation,
  type DataTableColumn,
} from '@portal/shared-ui';
import { formatDisplayDate } from '@portal/shared-ui/forms';
import { useRemoveUserLicense } from '../../../api/remove-user-license';
import { PageHeading } from '../../../components/admin-page';
import { PagedTable } from '../../../components/paged-table';
import { UNASSIGN_LICENCE } from '../../../config/permissions';
import { useUserLicenses } from '../api/get-user-licenses';

type Removal = { kind: 'idle' } | { kind: 'removed'; name: string } | { kind: 'failed' };

/** The licences a user holds a seat of; with the permission, a seat can be freed after a confirmation. */
export function UserLicences({ user }: { user: AdminUser }) {
  const { t } = useTranslation();
  const can = usePermissions();
  const list = usePagedListState({ ordering: 'licenseName' });
  const result = useUserLicenses(user.id, list.params);
  const remove = useRemoveUserLicense();
  const [chosen, setChosen] = useState<LicenseBlock | null>(null);
  const [busy, setBusy] = useState(false);
  const [removal, setRemoval] = useState<Removal>({ kind: 'idle' });

  const confirm = async () => {
    if (!chosen) return;
    setBusy(true);
    try {
      const outcome = await remove(user.id, chosen.id);
      setRemoval(outcome.isSuccess ? { kind: 'removed', name: chosen.licenseName } : { kind: 'failed' });
    } catch (error) {
      console.error('Removing the licence failed', error);
      setRemoval({ kind: 'failed' });
    } finally {
      setBusy(false);
      setChosen(null);
    }
  };

  const columns: DataTableColumn<LicenseBlock>[] = [
    { key: 'licenseName', header: t('admin.licence.licenseName'), sortable: true },
    { key: 'startDate', header: t('admin.licence.startDate'), sortable: true, render: (row) => formatDisplayDate(row.startDate) },
    { key: 'expiryDate', header: t('admin.licence.expiryDate'), sortable: true, render: (row) => formatDisplayDate(row.expiryDate) },
    { key: 'isActive', header: t('admin.status'), sortable: true, render: (row) => <StatusPill active={row.isActive} /> },
    ...(can(UNASSIGN_LICENCE)
      ? [
          {
            key: 'remove',
            header: t('admin.actions'),
            render: (row: LicenseBlock) => (
              <Button
                variant="secondary"
                onClick={() => {
                  setRemoval({ kind: 'idle' });
                  setChosen(row);
                }}
                aria-label={t('admin.removeLicense.buttonFor', { name: row.licenseName })}
              >
                {t('admin.removeLicense.button')}
              </Button>
            ),
          },
        ]
      : []),
  ];

  return (
    <section>
      <PageHeading level={2} title={t('admin.user.licences')} />
      {removal.kind === 'removed' && (
        <SuccessBanner heading={t('admin.successHeading')} messages={[t('admin.removeLicense.done', { name: user.fullName })]} />
      )}
      {removal.kind === 'failed' && <ErrorBanner errors={[t('admin.removeLicense.errorMessage')]} />}
      <PagedTable list={list} result={result} columns={columns} caption={t('admin.user.licences')} />
      <ConfirmDialog
        open={chosen !== null}
        title={t('admin.removeLicense.title')}
        message={t('admin.removeLicense.message', { name: user.fullName, licence: chosen?.licenseName ?? '' })}
        confirmLabel={t('admin.removeLicense.button')}
        onConfirm={() => void confirm()}
        onCancel={() => setChosen(null)}
        busy={busy}
      />
    </section>
  );
}

import { useState } from 'react';
import type { LicensedUser, LicenseBlock } from '@portal/contract';
import { usePermissions } from '@portal/shared-auth';
import {
  Button,
  ConfirmDialog,
  ErrorBanner,
  SuccessBanner,
  usePagedListState,
  useTranslation,
  type DataTableColumn,
} from '@portal/shared-ui';
import { useRemoveUserLicense } from '../../../api/remove-user-license';
import { PageHeading } from '../../../components/admin-page';
import { PagedTable } from '../../../components/paged-table';
import { useRoleLabel } from '../../../lib/roles';
import { UNASSIGN_LICENCE } from '../../../config/permissions';
import { useLicenseUsers } from '../api/get-license-users';

type Removal = { kind: 'idle' } | { kind: 'removed'; name: string } | { kind: 'failed'; errors: string[] };

/** The users holding a seat of the licence; with the permission, a seat can be freed (after a confirmation). */
export function LicensedUsers({ organisationId, licence }: { organisationId: number; licence: LicenseBlock }) {
  const { t } = useTranslation();
  const can = usePermissions();
  const list = usePagedListState({ ordering: 'lastName' });
  const result = useLicenseUsers(organisationId, licence.id, list.params);
  const remove = useRemoveUserLicense();
  const roleLabel = useRoleLabel();
  const [chosen, setChosen] = useState<LicensedUser | null>(null);
  const [busy, setBusy] = useState(false);
  const [removal, setRemoval] = useState<Removal>({ kind: 'idle' });

  const confirm = async () => {
    if (!chosen) return;
    setBusy(true);
    try {
      const outcome = await remove(chosen.id, licence.id);
      if (outcome.isSuccess) setRemoval({ kind: 'removed', name: chosen.fullName });
      else setRemoval({ kind: 'failed', errors: [t('admin.removeLicense.errorMessage')] });
    } catch (error) {
      console.error('Removing the licence failed', error);
      setRemoval({ kind: 'failed', errors: [t('admin.removeLicense.errorMessage')] });
    } finally {
      setBusy(false);
      setChosen(null);
    }
  };

  const columns: DataTableColumn<LicensedUser>[] = [
    { key: 'fullName', header: t('admin.user.name'), sortable: true },
    { key: 'email', header: t('admin.user.email'), sortable: true },
    {
      key: 'roleName',
      header: t('admin.user.role'),
      sortable: true,
      render: (row) => roleLabel(row.roleName),
    },
    ...(can(UNASSIGN_LICENCE)
      ? [
          {
            key: 'remove',
            header: t('admin.actions'),
            render: (row: LicensedUser) => (
              <Button
                variant="secondary"
                onClick={() => {
                  setRemoval({ kind: 'idle' });
                  setChosen(row);
                }}
                aria-label={t('admin.removeLicense.buttonFor', { name: row.fullName })}
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
      <PageHeading level={2} title={t('admin.licence.users')} />
      {removal.kind === 'removed' && (
        <SuccessBanner heading={t('admin.successHeading')} messages={[t('admin.removeLicense.done', { name: removal.name })]} />
      )}
      {removal.kind === 'failed' && <ErrorBanner errors={removal.errors} />}
      <PagedTable list={list} result={result} columns={columns} caption={t('admin.licence.users')} searchLabel={t('admin.users.search')} />
      <ConfirmDialog
        open={chosen !== null}
        title={t('admin.removeLicense.title')}
        message={t('admin.removeLicense.message', { name: chosen?.fullName ?? '', licence: licence.licenseName })}
        confirmLabel={t('admin.removeLicense.button')}
        onConfirm={() => void confirm()}
        onCancel={() => setChosen(null)}
        busy={busy}
      />
    </section>
  );
}

import type { LicensedUser, LicenseBlock } from '@portal/contract';
import { usePermissions } from '@portal/shared-auth';
import { useTranslation } from '@portal/shared-ui';
import { usePagedListState, type DataTableColumn } from '@portal/shared-ui/widgets';
import { useRemoveUserLicense } from '../../../api/remove-user-license';
import { RemovableRowsTable } from '../../../components/removable-rows-table';
import { useRoleLabel } from '../../../lib/roles';
import { useUserName } from '../../../lib/user-name';
import { UNASSIGN_LICENCE } from '../../../config/permissions';
import { useLicenseUsers } from '../api/get-license-users';

/** The users holding a seat of the licence; with the permission, a seat can be freed (after a confirmation). */
export function LicensedUsers({
  organisationId,
  licence,
}: {
  organisationId: number;
  licence: LicenseBlock;
}) {
  const { t } = useTranslation('admin');
  const can = usePermissions();
  const list = usePagedListState({ ordering: 'lastName' });
  const result = useLicenseUsers(organisationId, licence.id, list.params);
  const remove = useRemoveUserLicense();
  const roleLabel = useRoleLabel();
  const userName = useUserName();

  const columns: DataTableColumn<LicensedUser>[] = [
    { key: 'fullName', header: t('user.name'), sortable: true, render: (row) => userName(row) },
    { key: 'email', header: t('user.email'), sortable: true, render: (row) => row.email ?? t('user.noEmail') },
    {
      key: 'roleName',
      header: t('user.role'),
      sortable: true,
      render: (row) => roleLabel(row.roleName),
    },
  ];

  return (
    <RemovableRowsTable
      title={t('licence.users')}
      list={list}
      result={result}
      columns={columns}
      searchLabel={t('users.search')}
      canRemove={can(UNASSIGN_LICENCE)}
      rowName={(user) => userName(user)}
      confirmMessage={(user) =>
        t('removeLicense.message', { name: user.fullName, licence: licence.licenseName })
      }
      doneMessage={(user) => t('removeLicense.done', { name: user.fullName })}
      remove={(user) => remove(user.id, licence.id)}
    />
  );
}

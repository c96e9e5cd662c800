import type { AdminUser } from '@portal/contract';
import { usePermissions } from '@portal/shared-auth';
import { useTranslation } from '@portal/shared-ui';
import { usePagedListState, type DataTableColumn } from '@portal/shared-ui/widgets';
import { useAdminBase } from '../../../components/admin-base';
import { ListSection, useEditColumn } from '../../../components/list-section';
import { useOrganisationCrumbs, useOrganisationId } from '../../../components/organisation-context';
import { paths } from '../../../config/paths';
import { CREATE_USERS } from '../../../config/permissions';
import { useRoleLabel } from '../../../lib/roles';
import { useUserName } from '../../../lib/user-name';
import { useOrganisationUsers } from '../api/get-organisation-users';

/** /admin/organisation/{id}/user: the organisation's users, their role and licences. */
export function UsersPage() {
  const { t } = useTranslation('admin');
  const base = useAdminBase();
  const can = usePermissions();
  const organisationId = useOrganisationId();
  const roleLabel = useRoleLabel();
  const userName = useUserName();
  const list = usePagedListState({ ordering: 'lastName' });
  const result = useOrganisationUsers(organisationId, list.params);
  useOrganisationCrumbs([{ label: t('users.title') }]);

  const editColumn = useEditColumn<AdminUser>(
    (row) => paths.user.getHref(base, organisationId, row.id),
    (row) => userName(row),
  );
  const columns: DataTableColumn<AdminUser>[] = [
    {
      key: 'lastName',
      header: t('user.name'),
      sortable: true,
      render: (row) => userName(row),
    },
    {
      key: 'email',
      header: t('user.email'),
      sortable: true,
      render: (row) =>
        row.pendingEmail ? (
          <>
            {row.email}
            <br />
            <small>{t('emailChange.pendingShort', { email: row.pendingEmail })}</small>
          </>
        ) : (
          (row.email ?? t('user.noEmail'))
        ),
    },
    {
      key: 'roleName',
      header: t('user.role'),
      sortable: true,
      render: (row) => roleLabel(row.roleName),
    },
    {
      key: 'licenseNames',
      header: t('user.licences'),
      render: (row) => row.licenseNames.join(', '),
    },
    {
      key: 'accountStatus',
      header: t('user.account'),
      sortable: true,
      render: (row) => t(`accountStatus.${row.accountStatus}`),
    },
    editColumn,
  ];

  return (
    <ListSection
      title={t('users.title')}
      create={
        can(CREATE_USERS)
          ? { label: t('users.add'), to: paths.newUsers.getHref(base, organisationId) }
          : null
      }
      list={list}
      result={result}
      columns={columns}
      searchLabel={t('users.search')}
    />
  );
}

import type { AdminUser } from '@portal/contract';
import { usePermissions } from '@portal/shared-auth';
import { ButtonLink, Link, usePagedListState, useTranslation, VisuallyHidden, type DataTableColumn } from '@portal/shared-ui';
import { useAdminBase } from '../../../components/admin-base';
import { PageHeading } from '../../../components/admin-page';
import { FlashBanner } from '../../../components/flash';
import { useOrganisationCrumbs, useOrganisationId } from '../../../components/organisation-context';
import { PagedTable } from '../../../components/paged-table';
import { paths } from '../../../config/paths';
import { CREATE_USERS } from '../../../config/permissions';
import { useRoleLabel } from '../../../lib/roles';
import { useOrganisationUsers } from '../api/get-organisation-users';

/** /admin/organisation/{id}/user: the organisation's users, their role and licences. */
export function UsersPage() {
  const { t } = useTranslation();
  const base = useAdminBase();
  const can = usePermissions();
  const organisationId = useOrganisationId();
  const roleLabel = useRoleLabel();
  const list = usePagedListState({ ordering: 'lastName' });
  const result = useOrganisationUsers(organisationId, list.params);
  useOrganisationCrumbs([{ label: t('admin.users.title') }]);

  const columns: DataTableColumn<AdminUser>[] = [
    { key: 'lastName', header: t('admin.user.name'), sortable: true, render: (row) => row.fullName },
    { key: 'email', header: t('admin.user.email'), sortable: true },
    { key: 'roleName', header: t('admin.user.role'), sortable: true, render: (row) => roleLabel(row.roleName) },
    { key: 'licenseNames', header: t('admin.user.licences'), render: (row) => row.licenseNames.join(', ') },
    {
      key: 'accountStatus',
      header: t('admin.user.account'),
      sortable: true,
      render: (row) => t(`admin.accountStatus.${row.accountStatus}`),
    },
    {
      key: 'edit',
      header: t('admin.actions'),
      render: (row) => (
        <Link to={paths.user.getHref(base, organisationId, row.id)}>
          {t('common.edit')}
          <VisuallyHidden> {row.fullName}</VisuallyHidden>
        </Link>
      ),
    },
  ];

  return (
    <>
      <PageHeading
        level={2}
        title={t('admin.users.title')}
        actions={can(CREATE_USERS) && <ButtonLink to={paths.newUsers.getHref(base, organisationId)}>{t('admin.users.add')}</ButtonLink>}
      />
      <FlashBanner />
      <PagedTable list={list} result={result} columns={columns} caption={t('admin.users.title')} searchLabel={t('admin.users.search')} />
    </>
  );
}

import type { Organisation } from '@portal/contract';
import { usePermissions } from '@portal/shared-auth';
import {
  ButtonLink,
  Link,
  StatusPill,
  usePagedListState,
  useTranslation,
  VisuallyHidden,
  type DataTableColumn,
} from '@portal/shared-ui';
import { useAdminBase } from '../../../components/admin-base';
import { AdminPage } from '../../../components/admin-page';
import { FlashBanner } from '../../../components/flash';
import { PagedTable } from '../../../components/paged-table';
import { paths } from '../../../config/paths';
import { CREATE_ORGANISATION } from '../../../config/permissions';
import { useOrganisations } from '../api/get-organisations';

/** /admin/organisation: the organisations the user may see (spec §2). */
export function OrganisationsPage() {
  const { t } = useTranslation();
  const base = useAdminBase();
  const can = usePermissions();
  const list = usePagedListState({ ordering: 'name' });
  const result = useOrganisations(list.params);

  const columns: DataTableColumn<Organisation>[] = [
    { key: 'name', header: t('admin.organisation.name'), sortable: true },
    {
      key: 'isActive',
      header: t('admin.status'),
      sortable: true,
      render: (row) => <StatusPill active={row.isActive} />,
    },
    {
      key: 'edit',
      header: t('admin.actions'),
      render: (row) => (
        <Link to={paths.organisation.getHref(base, row.id)}>
          {t('common.edit')}
          <VisuallyHidden> {row.name}</VisuallyHidden>
        </Link>
      ),
    },
  ];

  return (
    <AdminPage
      title={t('admin.organisations')}
      actions={
        can(CREATE_ORGANISATION) && (
          <ButtonLink to={paths.newOrganisation.getHref(base)}>{t('admin.organisation.new')}</ButtonLink>
        )
      }
    >
      <FlashBanner />
      <PagedTable
        list={list}
        result={result}
        columns={columns}
        caption={t('admin.organisations')}
        searchLabel={t('admin.organisation.search')}
      />
    </AdminPage>
  );
}

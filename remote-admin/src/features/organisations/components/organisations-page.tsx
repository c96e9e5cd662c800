import type { Organisation } from '@portal/contract';
import { usePermissions } from '@portal/shared-auth';
import { ButtonLink, useTranslation } from '@portal/shared-ui';
import { StatusPill, usePagedListState, type DataTableColumn } from '@portal/shared-ui/widgets';
import { useAdminBase } from '../../../components/admin-base';
import { AdminPage } from '../../../components/admin-page';
import { FlashBanner } from '../../../components/flash';
import { useEditColumn } from '../../../components/list-section';
import { PagedTable } from '../../../components/paged-table';
import { paths } from '../../../config/paths';
import { CREATE_ORGANISATION } from '../../../config/permissions';
import { useOrganisations } from '../api/get-organisations';

/** /admin/organisation: the organisations the user may see (docs/requirements.md#administration). */
export function OrganisationsPage() {
  const { t } = useTranslation('admin');
  const base = useAdminBase();
  const can = usePermissions();
  const list = usePagedListState({ ordering: 'name' });
  const result = useOrganisations(list.params);

  const editColumn = useEditColumn<Organisation>(
    (row) => paths.organisation.getHref(base, row.id),
    (row) => row.name,
  );
  const columns: DataTableColumn<Organisation>[] = [
    { key: 'name', header: t('organisation.name'), sortable: true },
    {
      key: 'isActive',
      header: t('status'),
      sortable: true,
      render: (row) => <StatusPill active={row.isActive} />,
    },
    editColumn,
  ];

  return (
    <AdminPage
      title={t('organisations')}
      actions={
        can(CREATE_ORGANISATION) && (
          <ButtonLink to={paths.newOrganisation.getHref(base)}>
            {t('organisation.new')}
          </ButtonLink>
        )
      }
    >
      <FlashBanner />
      <PagedTable
        list={list}
        result={result}
        columns={columns}
        caption={t('organisations')}
        searchLabel={t('organisation.search')}
      />
    </AdminPage>
  );
}

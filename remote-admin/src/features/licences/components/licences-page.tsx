import type { LicenseBlock } from '@portal/contract';
import { usePermissions } from '@portal/shared-auth';
import { useTranslation } from '@portal/shared-ui';
import { usePagedListState, type DataTableColumn } from '@portal/shared-ui/widgets';
import { useAdminBase } from '../../../components/admin-base';
import { useLicenceColumns } from '../../../components/licence-columns';
import { ListSection, useEditColumn } from '../../../components/list-section';
import { useOrganisationCrumbs, useOrganisationId } from '../../../components/organisation-context';
import { paths } from '../../../config/paths';
import { CREATE_LICENCE } from '../../../config/permissions';
import { useLicenses } from '../api/get-licenses';
import { SeatUsage } from './seat-usage';

/** /admin/organisation/{id}/license: the organisation's licences with their seat usage. */
export function LicencesPage() {
  const { t } = useTranslation('admin');
  const licenceColumns = useLicenceColumns();
  const base = useAdminBase();
  const can = usePermissions();
  const organisationId = useOrganisationId();
  const list = usePagedListState({ ordering: 'licenseName' });
  const result = useLicenses(organisationId, list.params);
  useOrganisationCrumbs([{ label: t('licences.title') }]);

  const editColumn = useEditColumn<LicenseBlock>(
    (row) => paths.licence.getHref(base, organisationId, row.id),
    (row) => row.licenseName,
  );
  const columns: DataTableColumn<LicenseBlock>[] = [
    ...licenceColumns,
    {
      key: 'seatsUsed',
      header: t('licences.seats'),
      sortable: true,
      render: (row) => <SeatUsage used={row.seatsUsed} total={row.numberOfSeats} />,
    },
    editColumn,
  ];

  return (
    <ListSection
      title={t('licences.title')}
      create={
        can(CREATE_LICENCE)
          ? { label: t('licence.new'), to: paths.newLicence.getHref(base, organisationId) }
          : null
      }
      list={list}
      result={result}
      columns={columns}
      searchLabel={t('licences.search')}
    />
  );
}

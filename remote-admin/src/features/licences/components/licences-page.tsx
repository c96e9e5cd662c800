import type { LicenseBlock } from '@portal/contract';
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
import { formatDisplayDate } from '@portal/shared-ui/forms';
import { useAdminBase } from '../../../components/admin-base';
import { PageHeading } from '../../../components/admin-page';
import { FlashBanner } from '../../../components/flash';
import { useOrganisationCrumbs, useOrganisationId } from '../../../components/organisation-context';
import { PagedTable } from '../../../components/paged-table';
import { paths } from '../../../config/paths';
import { CREATE_LICENCE } from '../../../config/permissions';
import { useLicenses } from '../api/get-licenses';
import { SeatUsage } from './seat-usage';

/** /admin/organisation/{id}/license: the organisation's licences with their seat usage. */
export function LicencesPage() {
  const { t } = useTranslation();
  const base = useAdminBase();
  const can = usePermissions();
  const organisationId = useOrganisationId();
  const list = usePagedListState({ ordering: 'licenseName' });
  const result = useLicenses(organisationId, list.params);
  useOrganisationCrumbs([{ label: t('admin.licences.title') }]);

  const columns: DataTableColumn<LicenseBlock>[] = [
    { key: 'licenseName', header: t('admin.licence.licenseName'), sortable: true },
    { key: 'startDate', header: t('admin.licence.startDate'), sortable: true, render: (row) => formatDisplayDate(row.startDate) },
    { key: 'expiryDate', header: t('admin.licence.expiryDate'), sortable: true, render: (row) => formatDisplayDate(row.expiryDate) },
    { key: 'isActive', header: t('admin.status'), sortable: true, render: (row) => <StatusPill active={row.isActive} /> },
    {
      key: 'seatsUsed',
      header: t('admin.licences.seats'),
      sortable: true,
      render: (row) => <SeatUsage used={row.seatsUsed} total={row.numberOfSeats} />,
    },
    {
      key: 'edit',
      header: t('admin.actions'),
      render: (row) => (
        <Link to={paths.licence.getHref(base, organisationId, row.id)}>
          {t('common.edit')}
          <VisuallyHidden> {row.licenseName}</VisuallyHidden>
        </Link>
      ),
    },
  ];

  return (
    <>
      <PageHeading
        level={2}
        title={t('admin.licences.title')}
        actions={
          can(CREATE_LICENCE) && (
            <ButtonLink to={paths.newLicence.getHref(base, organisationId)}>{t('admin.licence.new')}</ButtonLink>
          )
        }
      />
      <FlashBanner />
      <PagedTable list={list} result={result} columns={columns} caption={t('admin.licences.title')} searchLabel={t('admin.licences.search')} />
    </>
  );
}

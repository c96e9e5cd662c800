import type { Notification } from '@portal/contract';
import { Link, useFormatDate, useTranslation } from '@portal/shared-ui';
import { DataTable, type DataTableColumn } from '@portal/shared-ui/widgets';
import { useAdminBase } from '../../../components/admin-base';
import { paths } from '../../../config/paths';
import { useNotifications } from '../api/get-notifications';

/**
 * The notifications the API answers (not paged: at most a few per licence), each linking to its
 * licence; with `organisation` only that organisation's, and without the organisation column.
 */
export function NotificationsTable({
  organisation,
  caption,
}: {
  organisation?: number;
  caption: string;
}) {
  const { t } = useTranslation('admin');
  const formatDate = useFormatDate();
  const base = useAdminBase();
  const { data, error, isLoading } = useNotifications(organisation);

  const detail = (row: Notification) =>
    row.kind === 'license_seats_nearly_full'
      ? t('licences.seatsUsed', { used: row.seatsUsed, total: row.numberOfSeats })
      : t(`notification.detail.${row.kind}`, { date: formatDate(row.expiryDate, 'day') });

  // Two columns, each with a second line, so the table fits a phone without scrolling sideways.
  const columns: DataTableColumn<Notification>[] = [
    {
      key: 'licenseName',
      header: t('notification.licence'),
      render: (row) => (
        <>
          <Link to={paths.licence.getHref(base, row.organisation, row.license)}>
            {row.licenseName}
          </Link>
          {organisation === undefined && (
            <>
              <br />
              <small>{row.organisationName}</small>
            </>
          )}
        </>
      ),
    },
    {
      key: 'kind',
      header: t('notification.kind'),
      render: (row) => (
        <>
          {t(`notification.kinds.${row.kind}`)}
          <br />
          <small>{detail(row)}</small>
        </>
      ),
    },
  ];

  return (
    <DataTable
      caption={caption}
      columns={columns}
      rows={data ?? []}
      loading={isLoading && !data}
      error={error}
      getRowKey={(row) => `${row.kind}-${row.license}`}
    />
  );
}

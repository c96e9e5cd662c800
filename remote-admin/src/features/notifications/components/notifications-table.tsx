import type { Notification } from '@portal/contract';
import { DataTable, Link, useFormatDate, useTranslation, type DataTableColumn } from '@portal/shared-ui';
import { useAdminBase } from '../../../components/admin-base';
import { paths } from '../../../config/paths';
import { useNotifications } from '../api/get-notifications';

/**
 * The notifications the API answers (not paged: at most a few per licence), each linking to its
 * licence; with `organisation` only that organisation's, and without the organisation column.
 */
export function NotificationsTable({ organisation, caption }: { organisation?: number; caption: string }) {
  const { t } = useTranslation('admin');
  const formatDate = useFormatDate();
  const base = useAdminBase();
  const { data, error, isLoading } = useNotifications(organisation);

  const detail = (row: Notification) =>
    row.kind === 'license_seats_nearly_full'
      ? t('admin.licences.seatsUsed', { used: row.seatsUsed, total: row.numberOfSeats })
      : t(`admin.notification.detail.${row.kind}`, { date: formatDate(row.expiryDate, 'day') });

  const columns: DataTableColumn<Notification>[] = [
    { key: 'kind', header: t('admin.notification.kind'), render: (row) => t(`admin.notification.kinds.${row.kind}`) },
    { key: 'detail', header: t('admin.notification.detail.header'), render: detail },
    ...(organisation === undefined
      ? [{ key: 'organisationName', header: t('admin.notification.organisation') } satisfies DataTableColumn<Notification>]
      : []),
    {
      key: 'licenseName',
      header: t('admin.notification.licence'),
      render: (row) => <Link to={paths.licence.getHref(base, row.organisation, row.license)}>{row.licenseName}</Link>,
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

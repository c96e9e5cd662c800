import type { LicenseBlock } from '@portal/contract';
import { useFormatDate, useTranslation } from '@portal/shared-ui';
import { StatusPill, type DataTableColumn } from '@portal/shared-ui/widgets';

/**
 * The columns every licence list starts with: name, start, expiry and status, all sortable (the
 * organisation's licences, a user's licences).
 */
export function useLicenceColumns(): DataTableColumn<LicenseBlock>[] {
  const { t } = useTranslation('admin');
  const formatDate = useFormatDate();
  return [
    { key: 'licenseName', header: t('licence.licenseName'), sortable: true },
    {
      key: 'startDate',
      header: t('licence.startDate'),
      sortable: true,
      render: (row) => formatDate(row.startDate, 'day'),
    },
    {
      key: 'expiryDate',
      header: t('licence.expiryDate'),
      sortable: true,
      render: (row) => formatDate(row.expiryDate, 'day'),
    },
    {
      key: 'isActive',
      header: t('status'),
      sortable: true,
      render: (row) => <StatusPill active={row.isActive} />,
    },
  ];
}

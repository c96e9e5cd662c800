import type { LookupItem } from '@portal/contract';
import { Link, useTranslation } from '@portal/shared-ui';
import { DataTable, type DataTableColumn } from '@portal/shared-ui/widgets';
import { useLookup } from '../../../api/get-lookup';
import { useAdminBase } from '../../../components/admin-base';
import { AdminPage } from '../../../components/admin-page';
import { paths } from '../../../config/paths';

/**
 * /admin/product: every product of the catalogue (the `product` lookup: a handful, in catalogue
 * order, so one table without pages), each opening its configurations and downloads.
 */
export function ProductsPage() {
  const { t } = useTranslation('admin');
  const base = useAdminBase();
  const { data, error, isLoading } = useLookup('product');

  const columns: DataTableColumn<LookupItem>[] = [
    {
      key: 'name',
      header: t('product.name'),
      render: (row) => <Link to={paths.product.getHref(base, row.id)}>{row.name}</Link>,
    },
    {
      key: 'description',
      header: t('product.description'),
      render: (row) => row.description ?? '',
    },
  ];

  return (
    <AdminPage title={t('products')}>
      <p>{t('productsIntro')}</p>
      <DataTable
        caption={t('product.list')}
        columns={columns}
        rows={data ?? []}
        loading={isLoading && !data}
        error={error}
      />
    </AdminPage>
  );
}

import type { SimulationDownload } from '@portal/contract';
import { useTranslation } from '@portal/shared-ui';
import { StatusPill, usePagedListState, type DataTableColumn } from '@portal/shared-ui/widgets';
import { useAdminBase } from '../../../components/admin-base';
import { ListSection, useEditColumn } from '../../../components/list-section';
import { useFramedProduct, useProductCrumbs } from '../../../components/product-context';
import { paths } from '../../../config/paths';
import { VIEW_DOWNLOADS } from '../../../config/permissions';
import { useDownloads } from '../api/get-downloads';
import { useCanChangeDownloads } from '../can-change-downloads';

/** /admin/product/{id}/download: the product's installer versions, active ones first (spec §2, §9). */
export function DownloadsPage() {
  const { t } = useTranslation('admin');
  const base = useAdminBase();
  const canChange = useCanChangeDownloads();
  const product = useFramedProduct();
  const list = usePagedListState({ ordering: '-isActive' });
  const result = useDownloads(product.id, list.params);
  useProductCrumbs([{ label: t('admin.downloads.title'), anyOf: VIEW_DOWNLOADS }]);

  const editColumn = useEditColumn<SimulationDownload>(
    (row) => paths.download.getHref(base, product.id, row.id),
    (row) =>
      t('admin.download.name', {
        version: row.version,
        os: t(`admin.download.os.${row.operatingSystem}`),
      }),
    canChange.update,
  );
  const columns: DataTableColumn<SimulationDownload>[] = [
    { key: 'id', header: t('admin.download.id'), sortable: true },
    { key: 'version', header: t('admin.download.version'), sortable: true },
    {
      key: 'operatingSystem',
      header: t('admin.download.operatingSystem'),
      sortable: true,
      render: (row) => t(`admin.download.os.${row.operatingSystem}`),
    },
    {
      key: 'isActive',
      header: t('admin.status'),
      sortable: true,
      render: (row) => <StatusPill active={row.isActive} />,
    },
    editColumn,
  ];

  return (
    <ListSection
      title={t('admin.downloads.title')}
      create={
        canChange.create
          ? { label: t('admin.download.add'), to: paths.newDownload.getHref(base, product.id) }
          : null
      }
      list={list}
      result={result}
      columns={columns}
      searchLabel={t('admin.downloads.search')}
    />
  );
}

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

/** /admin/product/{id}/download: the product's installer versions, active ones first (docs/requirements.md#administration, #limits-and-defaults). */
export function DownloadsPage() {
  const { t } = useTranslation('admin');
  const base = useAdminBase();
  const canChange = useCanChangeDownloads();
  const product = useFramedProduct();
  const list = usePagedListState({ ordering: '-isActive' });
  const result = useDownloads(product.id, list.params);
  useProductCrumbs([{ label: t('downloads.title'), anyOf: VIEW_DOWNLOADS }]);

  const editColumn = useEditColumn<SimulationDownload>(
    (row) => paths.download.getHref(base, product.id, row.id),
    (row) =>
      t('download.name', {
        version: row.version,
        os: t(`download.os.${row.operatingSystem}`),
      }),
    canChange.update,
  );
  const columns: DataTableColumn<SimulationDownload>[] = [
    { key: 'id', header: t('download.id'), sortable: true },
    { key: 'version', header: t('download.version'), sortable: true },
    {
      key: 'operatingSystem',
      header: t('download.operatingSystem'),
      sortable: true,
      render: (row) => t(`download.os.${row.operatingSystem}`),
    },
    {
      key: 'isActive',
      header: t('status'),
      sortable: true,
      render: (row) => <StatusPill active={row.isActive} />,
    },
    editColumn,
  ];

  return (
    <ListSection
      title={t('downloads.title')}
      create={
        canChange.create
          ? { label: t('download.add'), to: paths.newDownload.getHref(base, product.id) }
          : null
      }
      list={list}
      result={result}
      columns={columns}
      searchLabel={t('downloads.search')}
    />
  );
}

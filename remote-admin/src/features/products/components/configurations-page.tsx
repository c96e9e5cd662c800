import { useMemo } from 'react';
import type { ProductConfiguration } from '@portal/contract';
import { useTranslation } from '@portal/shared-ui';
import { usePagedListState, type DataTableColumn } from '@portal/shared-ui/widgets';
import { useLookup } from '../../../api/get-lookup';
import { useAdminBase } from '../../../components/admin-base';
import { ListSection, useEditColumn } from '../../../components/list-section';
import { useFramedProduct, useProductCrumbs } from '../../../components/product-context';
import { paths } from '../../../config/paths';
import { useConfigurations } from '../api/get-configurations';
import { ConfigurationSchemaSection } from './configuration-schema-section';

/** /admin/product/{id}: the product's configurations, searchable by name (docs/requirements.md#administration). */
export function ConfigurationsPage() {
  const { t } = useTranslation('admin');
  const base = useAdminBase();
  const product = useFramedProduct();
  const list = usePagedListState({ ordering: 'configurationName' });
  const result = useConfigurations(product.id, list.params);
  const categories = useLookup('practice_view_category', undefined, { productId: product.id });
  const categoryNames = useMemo(
    () => new Map((categories.data ?? []).map((c) => [c.id, c.name])),
    [categories.data],
  );
  useProductCrumbs([{ label: t('configurations.title') }]);

  const editColumn = useEditColumn<ProductConfiguration>(
    (row) => paths.configuration.getHref(base, product.id, row.id),
    (row) => row.configurationName,
  );
  const columns: DataTableColumn<ProductConfiguration>[] = [
    {
      key: 'configurationName',
      header: t('configuration.configurationName'),
      sortable: true,
    },
    {
      key: 'practiceViewCategory',
      header: t('configuration.practiceViewCategory'),
      sortable: true,
      render: (row) =>
        categoryNames.get(row.practiceViewCategory) ?? String(row.practiceViewCategory),
    },
    {
      key: 'isSelfAssessment',
      header: t('configuration.isSelfAssessmentColumn'),
      sortable: true,
      render: (row) => t(row.isSelfAssessment ? 'common.yes' : 'common.no'),
    },
    editColumn,
  ];

  return (
    <>
      <ListSection
        title={t('configurations.title')}
        create={{
          label: t('configuration.new'),
          to: paths.newConfiguration.getHref(base, product.id),
        }}
        list={list}
        result={result}
        columns={columns}
        searchLabel={t('configurations.search')}
      />
      <ConfigurationSchemaSection productId={product.id} />
    </>
  );
}

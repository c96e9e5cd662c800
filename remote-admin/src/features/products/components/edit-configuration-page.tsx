import { NotFoundError } from '@portal/shared-auth';
import { NotFoundView, PageSpinner, SomethingWentWrongView, useParams, useTranslation } from '@portal/shared-ui';
import { useAdminBase } from '../../../components/admin-base';
import { PageHeading } from '../../../components/admin-page';
import { useFramedProduct, useProductCrumbs } from '../../../components/product-context';
import { paths } from '../../../config/paths';
import { useConfiguration } from '../api/get-configuration';
import { useUpdateConfiguration } from '../api/update-configuration';
import { ConfigurationForm } from './configuration-form';
import { MarkingSchemeSection } from './marking-scheme-section';

/** /admin/product/{id}/configuration/{configurationId}: edit, staying with "Product configuration saved". */
export function EditConfigurationPage() {
  const { configurationId: raw = '' } = useParams<{ configurationId: string }>();
  const configurationId = /^\d{1,10}$/.test(raw) ? Number(raw) : null;
  if (configurationId === null) return <NotFoundView />;
  return <EditConfiguration configurationId={configurationId} />;
}

function EditConfiguration({ configurationId }: { configurationId: number }) {
  const { t } = useTranslation('admin');
  const base = useAdminBase();
  const product = useFramedProduct();
  const { data, error } = useConfiguration(product.id, configurationId);
  const update = useUpdateConfiguration(product.id, configurationId);
  useProductCrumbs([
    { label: t('configurations.title'), to: paths.product.getHref(base, product.id) },
    { label: data?.configurationName ?? t('configuration.details') },
  ]);

  if (error instanceof NotFoundError) return <NotFoundView />;
  if (error) return <SomethingWentWrongView />;
  if (!data) return <PageSpinner />;
  return (
    <>
      <PageHeading level={2} title={data.configurationName} />
      <ConfigurationForm
        // A save answers the stored configuration (its files now `saved`): final-form takes it as
        // new initial values, and the success message stays.
        key={data.id}
        productId={product.id}
        configuration={data}
        save={update}
      />
      <MarkingSchemeSection productId={product.id} configurationId={data.id} />
    </>
  );
}

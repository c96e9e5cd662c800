import { useNavigate, useTranslation } from '@portal/shared-ui';
import { useAdminBase } from '../../../components/admin-base';
import { PageHeading } from '../../../components/admin-page';
import { flashState } from '../../../components/flash';
import { useFramedProduct, useProductCrumbs } from '../../../components/product-context';
import { paths } from '../../../config/paths';
import { useCreateConfiguration } from '../api/create-configuration';
import { ConfigurationForm } from './configuration-form';

/** /admin/product/{id}/configuration/new: a create goes back to the list with its success message. */
export function NewConfigurationPage() {
  const { t } = useTranslation('admin');
  const base = useAdminBase();
  const navigate = useNavigate();
  const product = useFramedProduct();
  const create = useCreateConfiguration(product.id);
  useProductCrumbs([
    { label: t('configurations.title'), to: paths.product.getHref(base, product.id) },
    { label: t('configuration.new') },
  ]);
  return (
    <>
      <PageHeading level={2} title={t('configuration.new')} />
      <ConfigurationForm
        productId={product.id}
        save={create}
        onCreated={(configuration) =>
          void navigate(paths.product.getHref(base, product.id), {
            state: flashState(t('configuration.added', { name: configuration.configurationName })),
          })
        }
      />
    </>
  );
}

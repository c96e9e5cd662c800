import { useNavigate, useTranslation } from '@portal/shared-ui';
import { useAdminBase } from '../../../components/admin-base';
import { PageHeading } from '../../../components/admin-page';
import { flashState } from '../../../components/flash';
import { useFramedProduct, useProductCrumbs } from '../../../components/product-context';
import { paths } from '../../../config/paths';
import { VIEW_DOWNLOADS } from '../../../config/permissions';
import { useCreateDownload } from '../api/create-download';
import { DownloadForm } from './download-form';

/** /admin/product/{id}/download/new: a create goes back to the list with its success message (docs/requirements.md#administration, #saving-and-deleting). */
export function NewDownloadPage() {
  const { t } = useTranslation('admin');
  const base = useAdminBase();
  const navigate = useNavigate();
  const product = useFramedProduct();
  const create = useCreateDownload(product.id);
  useProductCrumbs([
    { label: t('downloads.title'), to: paths.downloads.getHref(base, product.id), anyOf: VIEW_DOWNLOADS },
    { label: t('download.add') },
  ]);
  return (
    <>
      <PageHeading level={2} title={t('download.details')} />
      <DownloadForm
        productId={product.id}
        product={product}
        save={create}
        onCreated={(download) =>
          void navigate(paths.downloads.getHref(base, product.id), {
            state: flashState(
              t('download.added', { version: download.version, os: t(`download.os.${download.operatingSystem}`) }),
            ),
          })
        }
      />
    </>
  );
}

import { NotFoundError } from '@portal/shared-auth';
import { NotFoundView, PageSpinner, SomethingWentWrongView, useParams, useTranslation } from '@portal/shared-ui';
import { useAdminBase } from '../../../components/admin-base';
import { PageHeading } from '../../../components/admin-page';
import { useFramedProduct, useProductCrumbs } from '../../../components/product-context';
import { paths } from '../../../config/paths';
import { VIEW_DOWNLOADS } from '../../../config/permissions';
import { useDownload } from '../api/get-download';
import { useUpdateDownload } from '../api/update-download';
import { useCanChangeDownloads } from '../can-change-downloads';
import { DownloadForm } from './download-form';

/** /admin/product/{id}/download/{downloadId}: 'Download details', staying with the success message. */
export function EditDownloadPage() {
  const { downloadId: raw = '' } = useParams<{ downloadId: string }>();
  const downloadId = /^\d{1,10}$/.test(raw) ? Number(raw) : null;
  if (downloadId === null) return <NotFoundView />;
  return <EditDownload downloadId={downloadId} />;
}

function EditDownload({ downloadId }: { downloadId: number }) {
  const { t } = useTranslation('admin');
  const base = useAdminBase();
  const canChange = useCanChangeDownloads();
  const product = useFramedProduct();
  const { data, error } = useDownload(product.id, downloadId);
  const update = useUpdateDownload(product.id, downloadId);
  useProductCrumbs([
    { label: t('downloads.title'), to: paths.downloads.getHref(base, product.id), anyOf: VIEW_DOWNLOADS },
    { label: data ? t('download.name', { version: data.version, os: t(`download.os.${data.operatingSystem}`) }) : t('download.details') },
  ]);

  if (error instanceof NotFoundError) return <NotFoundView />;
  if (error) return <SomethingWentWrongView />;
  if (!data) return <PageSpinner />;
  return (
    <>
      <PageHeading level={2} title={t('download.details')} />
      {/* A save answers the stored version: final-form takes it as new initial values, the message stays. */}
      <DownloadForm
        key={data.id}
        productId={product.id}
        product={product}
        download={data}
        save={update}
        readOnly={!canChange.update}
      />
    </>
  );
}

import { NotFoundError } from '@portal/shared-auth';
import {
  Breadcrumbs,
  NotFoundView,
  Outlet,
  SkeletonBar,
  SomethingWentWrongView,
  usePageTitle,
  useParams,
  useTranslation,
  VisuallyHidden,
  type BreadcrumbItem,
} from '@portal/shared-ui';
import { TabLinks } from '@portal/shared-ui/widgets';
import type { LookupItem } from '@portal/contract';
import { useLookup } from '../../../api/get-lookup';
import { useAdminBase } from '../../../components/admin-base';
import { ProductFrameProvider } from '../../../components/product-context';
import { paths } from '../../../config/paths';
import { MANAGE_SIM_CONFIG, VIEW_DOWNLOADS } from '../../../config/permissions';
import { useCrumbPermissions } from '../../../lib/use-crumb-permissions';

/**
 * docs/requirements.md#administration /admin/product/{id}: the product's name, breadcrumbs rooted at Administration and the
 * tabs Product configurations and Downloads; the screens below add their own crumbs.
 */
export function ProductLayout() {
  const { productId: raw = '' } = useParams<{ productId: string }>();
  const productId = /^\d{1,10}$/.test(raw) ? Number(raw) : null;
  const { data, error } = useLookup('product', undefined, { enabled: productId !== null });
  const product = data?.find((p) => p.id === productId);

  if (productId === null || error instanceof NotFoundError || (data && !product))
    return <NotFoundView />;
  if (error) return <SomethingWentWrongView />;
  if (!product) return <ProductFrame product={null} crumbs={[]} />;
  return (
    <ProductFrameProvider product={product}>
      {(crumbs) => <ProductFrame product={product} crumbs={crumbs} />}
    </ProductFrameProvider>
  );
}

function ProductFrame({
  product,
  crumbs,
}: {
  product: LookupItem | null;
  crumbs: readonly BreadcrumbItem[];
}) {
  const { t } = useTranslation('admin');
  const base = useAdminBase();
  const can = useCrumbPermissions();
  usePageTitle(crumbs.at(-1)?.label ?? product?.name ?? t('products'));

  return (
    <section>
      <Breadcrumbs
        hasPermission={can}
        items={[
          { label: t('administration'), to: paths.organisations.getHref(base) },
          {
            label: t('products'),
            to: paths.products.getHref(base),
            anyOf: MANAGE_SIM_CONFIG,
          },
          ...(product
            ? [{ label: product.name, to: paths.product.getHref(base, product.id) }, ...crumbs]
            : []),
        ]}
      />
      {product ? (
        <>
          <h1>{product.name}</h1>
          <TabLinks
            label={t('product.tabs')}
            hasPermission={can}
            tabs={[
              {
                to: paths.product.getHref(base, product.id),
                label: t('configurations.title'),
                end: true,
              },
              {
                to: paths.downloads.getHref(base, product.id),
                label: t('downloads.title'),
                anyOf: VIEW_DOWNLOADS,
              },
            ]}
          />
          <Outlet />
        </>
      ) : (
        <h1 aria-busy="true">
          <VisuallyHidden>{t('common.loading')}</VisuallyHidden>
          <SkeletonBar aria-hidden="true" style={{ width: '40%', height: '1em' }} />
        </h1>
      )}
    </section>
  );
}

import styled from 'styled-components';
import type { Product, ProductCategory } from '@portal/contract';
import {
  type BreadcrumbItem,
  Breadcrumbs,
  NotFoundView,
  useLocation,
  usePageTitle,
  useParams,
  useTranslation,
} from '@portal/shared-ui';
import { isLtiPath, paths } from '../../../config/paths';
import { LoadErrorView } from '../../../components/load-error-view';
import { SimulationImage } from '../../../components/simulation-image';
import { useProductCategories } from '../api/get-product-categories';
import { useProducts } from '../../../api/get-products';
import { parseCategoryPath, parseProductId, resolveCategoryPath } from '../category-path';
import { CardGrid, CardGridSkeleton, CatalogueCard } from './catalogue-card';
import { ModeButtons } from './mode-buttons';

const Intro = styled.p`
  max-width: 60ch;
  margin: ${({ theme }) => `0 0 ${theme.space.lg}`};
  color: ${({ theme }) => theme.colors.textMuted};
`;

const Leaf = styled.div`
  display: grid;
  gap: ${({ theme }) => theme.space.lg};
  align-items: start;
  max-width: 960px;

  ${({ theme }) => theme.media.md} {
    grid-template-columns: minmax(0, 2fr) minmax(0, 3fr);
  }

  img {
    border: 1px solid ${({ theme }) => theme.colors.border};
    border-radius: ${({ theme }) => theme.radii.md};
  }

  h1 {
    margin-top: 0;
  }

  p {
    margin: ${({ theme }) => `0 0 ${theme.space.lg}`};
    color: ${({ theme }) => theme.colors.textMuted};
  }
`;

interface ViewProps {
  product: Product;
  /** The categories from the product down to the current one. */
  trail: ProductCategory[];
  ids: number[];
  roots: ProductCategory[];
  lti: boolean;
}

function CategoryView({ product, trail, ids, roots, lti }: ViewProps) {
  const { t } = useTranslation('simulation');
  const current = trail.at(-1);
  usePageTitle(current?.displayName ?? product.name);

  const crumbs: BreadcrumbItem[] = [
    { label: t('breadcrumbs.simulations'), to: paths.products.getHref(lti) },
    { label: product.name, to: paths.category.getHref(product.id, [], lti) },
    ...trail.map((category, i) => ({
      label: category.displayName,
      to: paths.category.getHref(product.id, ids.slice(0, i + 1), lti),
    })),
  ];
  const children = current ? current.children : roots;

  if (current && children.length === 0) {
    return (
      <section>
        <Breadcrumbs items={crumbs} />
        <Leaf>
          <SimulationImage path={current.image} />
          <div>
            <h1>{current.displayName}</h1>
            <p>{product.selectionMessage || t('leaf.selectMode')}</p>
            <ModeButtons product={product} leaf={current} />
          </div>
        </Leaf>
      </section>
    );
  }
  return (
    <section>
      <Breadcrumbs items={crumbs} />
      <h1>{current?.displayName ?? product.name}</h1>
      {!current && product.description ? <Intro>{product.description}</Intro> : null}
      {children.length === 0 ? (
        <Intro>{t('categories.empty')}</Intro>
      ) : (
        <CardGrid aria-label={t('categories.listLabel')}>
          {children.map((child) => (
            <CatalogueCard
              key={child.id}
              to={paths.category.getHref(product.id, [...ids, child.id], lti)}
              title={child.displayName}
              image={child.image}
            />
          ))}
        </CardGrid>
      )}
    </section>
  );
}

/** /simulation/{productId}/{categoryId}/…: the categories under the current node, or the leaf's launch buttons. */
export function CategoryPage() {
  const params = useParams();
  const lti = isLtiPath(useLocation().pathname);
  const productId = parseProductId(params.productId);
  const ids = parseCategoryPath(params['*']);
  const valid = productId !== null && ids !== null;
  const products = useProducts({ enabled: valid });
  const categories = useProductCategories(valid ? productId : null);

  if (!valid) return <NotFoundView />;
  const error = products.error ?? categories.error;
  if (error) return <LoadErrorView error={error} />;
  if (!products.data || !categories.data) return <CardGridSkeleton />;

  const product = products.data.find((p) => p.id === productId);
  const trail = product ? resolveCategoryPath(categories.data, ids) : null;
  if (!product || !trail) return <NotFoundView />;
  return (
    <CategoryView product={product} trail={trail} ids={ids} roots={categories.data} lti={lti} />
  );
}

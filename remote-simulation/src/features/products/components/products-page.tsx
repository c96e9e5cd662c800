import styled from 'styled-components';
import { useLocation, usePageTitle, useTranslation } from '@portal/shared-ui';
import { isLtiPath, paths } from '../../../config/paths';
import { LoadErrorView } from '../../../components/load-error-view';
import { useProducts } from '../../../api/get-products';
import { CardGrid, CardGridSkeleton, CatalogueCard } from './catalogue-card';

const Intro = styled.p`
  max-width: 60ch;
  margin: ${({ theme }) => `0 0 ${theme.space.lg}`};
  color: ${({ theme }) => theme.colors.textMuted};
`;

const Empty = styled.p`
  padding: ${({ theme }) => theme.space.lg};
  border: 1px dashed ${({ theme }) => theme.colors.borderStrong};
  border-radius: ${({ theme }) => theme.radii.md};
  background: ${({ theme }) => theme.colors.surface};
`;

/** /simulation: one card per product the user may launch. */
export function ProductsPage() {
  const { t } = useTranslation('simulation');
  usePageTitle(t('pageTitle'));
  const lti = isLtiPath(useLocation().pathname);
  const { data: products, error, mutate } = useProducts();

  if (error) return <LoadErrorView error={error} onRetry={() => void mutate()} />;
  return (
    <section>
      <h1>{t('heading')}</h1>
      <Intro>{t('intro')}</Intro>
      {!products ? (
        <CardGridSkeleton />
      ) : products.length === 0 ? (
        <Empty>{t('products.empty')}</Empty>
      ) : (
        <CardGrid aria-label={t('products.listLabel')}>
          {products.map((product) => (
            <CatalogueCard
              key={product.id}
              to={paths.category.getHref(product.id, [], lti)}
              title={product.name}
              description={product.description}
              image={product.image}
            />
          ))}
        </CardGrid>
      )}
    </section>
  );
}

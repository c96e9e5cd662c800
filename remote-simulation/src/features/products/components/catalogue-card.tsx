import styled from 'styled-components';
import { Link, SkeletonBar, useTranslation, VisuallyHidden } from '@portal/shared-ui';
import { SimulationImage } from '../../../components/simulation-image';

export const CardGrid = styled.ul`
  display: grid;
  grid-template-columns: repeat(auto-fill, minmax(240px, 1fr));
  gap: ${({ theme }) => theme.space.lg};
  margin: 0;
  padding: 0;
  list-style: none;
`;

const Card = styled.li`
  position: relative;
  display: flex;
  flex-direction: column;
  overflow: hidden;
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radii.md};
  background: ${({ theme }) => theme.colors.surface};
  box-shadow: ${({ theme }) => theme.shadows.sm};
  transition: box-shadow 0.15s ease-in-out;

  &:hover,
  &:focus-within {
    box-shadow: ${({ theme }) => theme.shadows.md};
  }
`;

const Body = styled.div`
  padding: ${({ theme }) => theme.space.md};

  h2 {
    margin: 0;
    font-size: ${({ theme }) => theme.fontSizes.lg};
  }

  p {
    margin: ${({ theme }) => `${theme.space.sm} 0 0`};
    color: ${({ theme }) => theme.colors.textMuted};
  }
`;

// The whole card is clickable, but only the name is the link, so its accessible name is the name.
const CardLink = styled(Link)`
  color: ${({ theme }) => theme.colors.primary};
  text-decoration: none;

  &::after {
    content: '';
    position: absolute;
    inset: 0;
  }

  &:hover {
    text-decoration: underline;
  }

  &:focus-visible {
    outline: none;
  }

  &:focus-visible::after {
    outline: 3px solid ${({ theme }) => theme.colors.focus};
    outline-offset: -3px;
    border-radius: ${({ theme }) => theme.radii.md};
  }
`;

export interface CatalogueCardProps {
  to: string;
  title: string;
  description?: string | null;
  image: string | null;
}

/** A product or category: picture, name (the link) and an optional description. */
export function CatalogueCard({ to, title, description, image }: CatalogueCardProps) {
  return (
    <Card>
      <SimulationImage path={image} />
      <Body>
        <h2>
          <CardLink to={to}>{title}</CardLink>
        </h2>
        {description ? <p>{description}</p> : null}
      </Body>
    </Card>
  );
}

const SkeletonImage = styled(SkeletonBar)`
  height: auto;
  aspect-ratio: 8 / 5;
  border-radius: 0;
`;

/** Card-shaped placeholders while the catalogue loads. */
export function CardGridSkeleton({ count = 3 }: { count?: number }) {
  const { t } = useTranslation('simulation');
  return (
    <div role="status" aria-live="polite">
      <VisuallyHidden>{t('common.loading')}</VisuallyHidden>
      <CardGrid aria-hidden="true" data-testid="card-skeleton">
        {Array.from({ length: count }, (_, i) => (
          <Card key={i}>
            <SkeletonImage />
            <Body>
              <SkeletonBar style={{ width: '55%', height: '1.25em' }} />
              <SkeletonBar style={{ width: '90%', marginTop: '12px' }} />
              <SkeletonBar style={{ width: '70%', marginTop: '8px' }} />
            </Body>
          </Card>
        ))}
      </CardGrid>
    </div>
  );
}

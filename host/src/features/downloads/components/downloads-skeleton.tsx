import styled from 'styled-components';
import { SkeletonBar, useTranslation, VisuallyHidden } from '@portal/shared-ui';

const Group = styled.div`
  margin-bottom: ${({ theme }) => theme.space.lg};
  padding: ${({ theme }) => theme.space.lg};
  background: ${({ theme }) => theme.colors.surface};
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radii.md};
  display: grid;
  gap: ${({ theme }) => theme.space.md};
`;

const GROUPS = 2;
const ITEMS = 2;

/** The shape of the download groups while they load, so the page does not jump when they arrive. */
export function DownloadsSkeleton() {
  const { t } = useTranslation();
  return (
    <div role="status" aria-live="polite" data-testid="downloads-skeleton">
      <VisuallyHidden>{t('common.loading')}</VisuallyHidden>
      <div aria-hidden="true">
        {Array.from({ length: GROUPS }, (_, g) => (
          <Group key={g}>
            <SkeletonBar style={{ width: '35%', height: '1.25em' }} />
            {Array.from({ length: ITEMS }, (_, i) => (
              <SkeletonBar key={i} style={{ width: `${50 + ((g * 3 + i * 11) % 25)}%` }} />
            ))}
          </Group>
        ))}
      </div>
    </div>
  );
}

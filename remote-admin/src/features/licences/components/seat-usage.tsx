import styled from 'styled-components';
import { useTranslation } from '@portal/shared-ui';

const Wrapper = styled.div`
  display: flex;
  align-items: center;
  gap: ${({ theme }) => theme.space.sm};
  white-space: nowrap;
`;

const Track = styled.span`
  display: inline-block;
  width: 96px;
  height: 10px;
  border-radius: ${({ theme }) => theme.radii.pill};
  background: ${({ theme }) => theme.colors.surfaceMuted};
  border: 1px solid ${({ theme }) => theme.colors.border};
  overflow: hidden;
`;

const Fill = styled.span<{ $full: boolean }>`
  display: block;
  height: 100%;
  background: ${({ theme, $full }) => ($full ? theme.colors.danger : theme.colors.primary)};
`;

/**
 * How many of a licence's seats are taken. The bar is decoration; the sentence beside it
 * ("7 of 10 seats used") is what everyone, screen readers included, reads.
 */
export function SeatUsage({ used, total }: { used: number; total: number }) {
  const { t } = useTranslation('admin');
  const percent = total > 0 ? Math.min(100, Math.round((used / total) * 100)) : 100;
  return (
    <Wrapper>
      <Track aria-hidden="true">
        <Fill $full={used >= total} style={{ width: `${percent}%` }} />
      </Track>
      <span>{t('licences.seatsUsed', { used, total })}</span>
    </Wrapper>
  );
}

import { useTranslation } from '@portal/shared-ui';
import styled from 'styled-components';

const Pill = styled.span<{ $active: boolean }>`
  display: inline-flex;
  align-items: center;
  gap: ${({ theme }) => theme.space.xs};
  padding: ${({ theme }) => `${theme.space.xxs} ${theme.space.sm}`};
  border-radius: ${({ theme }) => theme.radii.pill};
  font-size: ${({ theme }) => theme.fontSizes.sm};
  font-weight: ${({ theme }) => theme.fontWeights.medium};
  background: ${({ theme, $active }) => ($active ? theme.colors.activeBackground : theme.colors.inactiveBackground)};
  color: ${({ theme, $active }) => ($active ? theme.colors.activeText : theme.colors.inactiveText)};

  &::before {
    content: '';
    width: 8px;
    height: 8px;
    border-radius: 50%;
    background: currentColor;
  }
`;

export function StatusPill({ active }: { active: boolean }) {
  const { t } = useTranslation();
  return <Pill $active={active}>{active ? t('common.active') : t('common.inactive')}</Pill>;
}

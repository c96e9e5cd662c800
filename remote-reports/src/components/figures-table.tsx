import styled from 'styled-components';

/**
 * A plain table of figures with a visible caption: the marks of an image, and the tables beside
 * the insight and progress charts. Cells with the class "number" align to the end, so digits line up.
 */
export const FiguresTable = styled.table`
  width: 100%;
  margin: ${({ theme }) => `${theme.space.md} 0 0`};
  border-collapse: collapse;

  caption {
    text-align: start;
    font-weight: ${({ theme }) => theme.fontWeights.medium};
    margin-bottom: ${({ theme }) => theme.space.xs};
  }

  th,
  td {
    text-align: start;
    vertical-align: top;
    padding: ${({ theme }) => `${theme.space.xxs} ${theme.space.sm}`};
    border-bottom: 1px solid ${({ theme }) => theme.colors.border};
  }

  .number {
    text-align: end;
    font-variant-numeric: tabular-nums;
  }

  thead th {
    color: ${({ theme }) => theme.colors.textMuted};
  }
`;

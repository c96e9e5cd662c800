import styled from 'styled-components';

/** A block of the instructor's launch page (roster, grade release): muted, left-aligned. */
export const InstructorPanel = styled.section`
  margin: ${({ theme }) => `${theme.space.lg} 0`};
  padding: ${({ theme }) => theme.space.md};
  background: ${({ theme }) => theme.colors.surfaceMuted};
  border-radius: ${({ theme }) => theme.radii.sm};
  text-align: left;

  h2 {
    font-size: ${({ theme }) => theme.fontSizes.md};
    margin: 0 0 ${({ theme }) => theme.space.xs};
  }

  p,
  ul {
    margin: ${({ theme }) => `0 0 ${theme.space.sm}`};
  }
`;

export const PanelErrorText = styled.p`
  color: ${({ theme }) => theme.colors.errorText};
  font-weight: ${({ theme }) => theme.fontWeights.medium};
`;

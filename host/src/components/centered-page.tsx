import styled from 'styled-components';

/** Full-page message outside the main layout (LTI, logout, errors). */
export const CenteredPage = styled.main`
  max-width: 40rem;
  margin: ${({ theme }) => `${theme.space.xxl} auto`};
  padding: ${({ theme }) => theme.space.lg};
  background: ${({ theme }) => theme.colors.surface};
  border-radius: ${({ theme }) => theme.radii.md};
  box-shadow: ${({ theme }) => theme.shadows.sm};
`;

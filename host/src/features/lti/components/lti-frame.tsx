import styled from 'styled-components';
import { Outlet } from '@portal/shared-ui';

const Main = styled.main`
  padding: ${({ theme }) => theme.space.lg};
`;

/**
 * The simulation and report pages opened from a learning platform: the remotes' own pages without
 * the sidebar, still in one main landmark, as every page of the portal is.
 */
export function LtiFrame() {
  return (
    <Main id="main-content">
      <Outlet />
    </Main>
  );
}

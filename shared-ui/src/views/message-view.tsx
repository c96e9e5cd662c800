import type { ReactNode } from 'react';
import { useInRouterContext } from '../router';
import styled from 'styled-components';
import { ButtonAnchor, ButtonLink, type ButtonVariant } from '../components/button';

export const ViewWrapper = styled.section`
  max-width: 640px;
  margin: 0 auto;
  padding: ${({ theme }) => `${theme.space.xxl} ${theme.space.lg}`};
  text-align: center;

  h1 {
    margin: ${({ theme }) => `0 0 ${theme.space.md}`};
    font-size: ${({ theme }) => theme.fontSizes.xl};
  }

  p {
    margin: ${({ theme }) => `0 0 ${theme.space.lg}`};
    color: ${({ theme }) => theme.colors.textMuted};
  }
`;

export const Actions = styled.div`
  display: flex;
  flex-wrap: wrap;
  justify-content: center;
  gap: ${({ theme }) => theme.space.sm};
`;

/**
 * A link that works inside a router (client-side navigation) and outside one (e.g. the page shown
 * when the portal is framed, which renders before the router).
 */
export function HomeLink({ to, variant = 'primary', children }: { to: string; variant?: ButtonVariant; children: ReactNode }) {
  const inRouter = useInRouterContext();
  return inRouter ? (
    <ButtonLink to={to} variant={variant}>
      {children}
    </ButtonLink>
  ) : (
    <ButtonAnchor href={to} variant={variant}>
      {children}
    </ButtonAnchor>
  );
}

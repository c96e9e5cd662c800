import type { RefObject } from 'react';
import styled from 'styled-components';
import { useTranslation } from '@portal/shared-ui';

/** Hidden until focused: the first Tab stop of every page (WCAG 2.4.1 bypass blocks). */
const Link = styled.a`
  position: absolute;
  top: ${({ theme }) => theme.space.sm};
  left: ${({ theme }) => theme.space.sm};
  z-index: ${({ theme }) => theme.zIndices.overlay};
  padding: ${({ theme }) => `${theme.space.sm} ${theme.space.md}`};
  border-radius: ${({ theme }) => theme.radii.sm};
  background: ${({ theme }) => theme.colors.surface};
  color: ${({ theme }) => theme.colors.primary};
  font-weight: ${({ theme }) => theme.fontWeights.medium};
  transform: translateY(-200%);

  &:focus {
    transform: none;
  }
`;

/**
 * Focuses the main region itself rather than following `#main`: a hash change would be a
 * navigation for the router.
 */
export function SkipLink({ targetId, targetRef }: { targetId: string; targetRef: RefObject<HTMLElement | null> }) {
  const { t } = useTranslation();
  return (
    <Link
      href={`#${targetId}`}
      onClick={(event) => {
        event.preventDefault();
        targetRef.current?.focus();
      }}
    >
      {t('layout.skipToContent')}
    </Link>
  );
}

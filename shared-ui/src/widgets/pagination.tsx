import { useTranslation } from '@portal/shared-ui';
import styled from 'styled-components';
import { getPageItems } from './page-items';

const Nav = styled.nav`
  margin-top: ${({ theme }) => theme.space.md};
`;

const List = styled.ul`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: ${({ theme }) => theme.space.xs};
  margin: 0;
  padding: 0;
  list-style: none;
`;

const PageButton = styled.button`
  min-width: 40px;
  min-height: 40px;
  padding: ${({ theme }) => `0 ${theme.space.sm}`};
  border: 1px solid ${({ theme }) => theme.colors.borderStrong};
  border-radius: ${({ theme }) => theme.radii.sm};
  background: ${({ theme }) => theme.colors.surface};
  color: ${({ theme }) => theme.colors.primary};
  cursor: pointer;

  &[aria-current='page'] {
    background: ${({ theme }) => theme.colors.primary};
    border-color: ${({ theme }) => theme.colors.primary};
    color: ${({ theme }) => theme.colors.onPrimary};
    font-weight: ${({ theme }) => theme.fontWeights.bold};
  }

  &:hover:not(:disabled):not([aria-current='page']) {
    background: ${({ theme }) => theme.colors.surfaceMuted};
  }

  &:disabled {
    color: ${({ theme }) => theme.colors.textMuted};
    opacity: 0.6;
    cursor: not-allowed;
  }
`;

const Ellipsis = styled.span`
  padding: ${({ theme }) => `0 ${theme.space.xs}`};
  color: ${({ theme }) => theme.colors.textMuted};
`;

export interface PaginationProps {
  /** Current page, from 1. */
  page: number;
  totalPages: number;
  onPageChange: (page: number) => void;
  /** Most page links shown, first and last included (docs/requirements.md#limits-and-defaults: 6). */
  maxLinks?: number;
}

export function Pagination({ page, totalPages, onPageChange, maxLinks = 6 }: PaginationProps) {
  const { t } = useTranslation();
  const items = getPageItems(page, totalPages, maxLinks);
  if (totalPages === 0) return null;

  const go = (target: number) => {
    if (target !== page && target >= 1 && target <= totalPages) onPageChange(target);
  };

  return (
    <Nav aria-label={t('pagination.label')}>
      <List>
        <li>
          <PageButton type="button" disabled={page <= 1} onClick={() => go(page - 1)}>
            {t('pagination.previous')}
          </PageButton>
        </li>
        {items.map((item) =>
          typeof item === 'number' ? (
            <li key={item}>
              <PageButton
                type="button"
                aria-label={t('pagination.page', { page: item })}
                aria-current={item === page ? 'page' : undefined}
                onClick={() => go(item)}
              >
                {item}
              </PageButton>
            </li>
          ) : (
            <li key={item} aria-hidden="true">
              <Ellipsis>…</Ellipsis>
            </li>
          ),
        )}
        <li>
          <PageButton type="button" disabled={page >= totalPages} onClick={() => go(page + 1)}>
            {t('pagination.next')}
          </PageButton>
        </li>
      </List>
    </Nav>
  );
}

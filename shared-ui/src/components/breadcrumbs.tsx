import { useTranslation } from '../i18n/react-i18next';
import { Link } from '../router';
import styled from 'styled-components';

const List = styled.ol`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: ${({ theme }) => theme.space.xs};
  margin: ${({ theme }) => `0 0 ${theme.space.md}`};
  padding: 0;
  list-style: none;
  font-size: ${({ theme }) => theme.fontSizes.sm};
`;

const Separator = styled.span`
  margin-right: ${({ theme }) => theme.space.xs};
  color: ${({ theme }) => theme.colors.textMuted};
`;

const Current = styled.span`
  color: ${({ theme }) => theme.colors.text};
  font-weight: ${({ theme }) => theme.fontWeights.medium};
`;

export interface BreadcrumbItem {
  label: string;
  /** Where the crumb links to; the last crumb (the current page) never links. */
  to?: string;
  /** docs/requirements.md#screens: shown only to a user holding any one of these permissions. */
  anyOf?: readonly string[];
}

export interface BreadcrumbsProps {
  items: readonly BreadcrumbItem[];
  /**
   * Whether the user holds any one of the permissions: shared-auth's `usePermissions()`.
   * Without it a crumb that asks for permissions is hidden (shared-ui does not depend on
   * shared-auth).
   */
  hasPermission?: (anyOf: readonly string[]) => boolean;
}

export function Breadcrumbs({ items: allItems, hasPermission }: BreadcrumbsProps) {
  const { t } = useTranslation();
  const items = allItems.filter(
    (item) => !item.anyOf || item.anyOf.length === 0 || (hasPermission?.(item.anyOf) ?? false),
  );
  if (items.length === 0) return null;
  return (
    <nav aria-label={t('common.breadcrumbs')}>
      <List>
        {items.map((item, i) => {
          const isLast = i === items.length - 1;
          return (
            <li key={`${i}-${item.label}`}>
              {i > 0 && <Separator aria-hidden="true">/</Separator>}
              {isLast ? (
                <Current aria-current="page">{item.label}</Current>
              ) : item.to !== undefined ? (
                <Link to={item.to}>{item.label}</Link>
              ) : (
                <span>{item.label}</span>
              )}
            </li>
          );
        })}
      </List>
    </nav>
  );
}

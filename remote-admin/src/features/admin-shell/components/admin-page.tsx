import type { ReactNode } from 'react';
import styled from 'styled-components';
import { Breadcrumbs, NavLink, usePageTitle, useTranslation } from '@portal/shared-ui';
import { useAdminBase } from './admin-base';

const Tabs = styled.ul`
  display: flex;
  flex-wrap: wrap;
  gap: ${({ theme }) => theme.space.sm};
  margin: ${({ theme }) => `0 0 ${theme.space.lg}`};
  padding: 0;
  list-style: none;
  border-bottom: 1px solid ${({ theme }) => theme.colors.border};

  a {
    display: inline-block;
    padding: ${({ theme }) => `${theme.space.sm} ${theme.space.md}`};
    color: ${({ theme }) => theme.colors.text};
    text-decoration: none;
    border-bottom: 3px solid transparent;
  }

  a.active {
    color: ${({ theme }) => theme.colors.primary};
    border-bottom-color: ${({ theme }) => theme.colors.primary};
  }
`;

export const ADMIN_SECTIONS = [
  { path: 'organisation', labelKey: 'admin.organisations' },
  { path: 'product', labelKey: 'admin.products' },
  { path: 'notification', labelKey: 'admin.notifications' },
] as const;

/** Every administration screen: breadcrumb root "Administration", heading, section tabs. */
export function AdminPage({ title, children }: { title: string; children?: ReactNode }) {
  const { t } = useTranslation();
  const base = useAdminBase();
  usePageTitle(title);
  return (
    <section>
      <Breadcrumbs items={[{ label: t('admin.administration'), to: `${base}/organisation` }, { label: title }]} />
      <h1>{title}</h1>
      <nav aria-label={t('admin.tabs')}>
        <Tabs>
          {ADMIN_SECTIONS.map((section) => (
            <li key={section.path}>
              <NavLink to={`${base}/${section.path}`}>{t(section.labelKey)}</NavLink>
            </li>
          ))}
        </Tabs>
      </nav>
      {children}
    </section>
  );
}

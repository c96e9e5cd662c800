import type { ReactNode } from 'react';
import styled from 'styled-components';
import { Breadcrumbs, usePageTitle, useTranslation, type BreadcrumbItem } from '@portal/shared-ui';
import { TabLinks } from '@portal/shared-ui/widgets';
import { paths } from '../config/paths';
import { MANAGE_SIM_CONFIG, VIEW_NOTIFICATIONS, VIEW_ORGANISATIONS } from '../config/permissions';
import { useCrumbPermissions } from '../lib/use-crumb-permissions';
import { useAdminBase } from './admin-base';

/** The section tabs, each shown to those who may open it (the routes ask the same). */
export const ADMIN_SECTIONS = [
  { href: paths.organisations.getHref, labelKey: 'organisations', anyOf: VIEW_ORGANISATIONS },
  { href: paths.products.getHref, labelKey: 'products', anyOf: MANAGE_SIM_CONFIG },
  { href: paths.notifications.getHref, labelKey: 'notifications', anyOf: VIEW_NOTIFICATIONS },
] as const;

export interface AdminPageProps {
  title: string;
  /** Crumbs between the root "Administration" and the page itself. */
  crumbs?: readonly BreadcrumbItem[];
  /** Shows the section tabs (organisations, products, notifications): the section landing pages. */
  sectionTabs?: boolean;
  /** Next to the heading, e.g. a "New organisation" button. */
  actions?: ReactNode;
  children?: ReactNode;
}

/** An administration screen outside an organisation: breadcrumb root "Administration", heading. */
export function AdminPage({
  title,
  crumbs = [],
  sectionTabs = true,
  actions,
  children,
}: AdminPageProps) {
  const { t } = useTranslation('admin');
  const base = useAdminBase();
  const can = useCrumbPermissions();
  usePageTitle(title);
  return (
    <section>
      <Breadcrumbs
        hasPermission={can}
        items={[
          { label: t('administration'), to: paths.organisations.getHref(base) },
          ...crumbs,
          { label: title },
        ]}
      />
      <PageHeading title={title} actions={actions} />
      {sectionTabs && (
        <TabLinks
          label={t('tabs')}
          hasPermission={can}
          tabs={ADMIN_SECTIONS.map((section) => ({
            to: section.href(base),
            label: t(section.labelKey),
            anyOf: section.anyOf,
          }))}
        />
      )}
      {children}
    </section>
  );
}

const HeadingRow = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  justify-content: space-between;
  gap: ${({ theme }) => theme.space.sm};
`;

/** A heading with the page's main action beside it. */
export function PageHeading({
  title,
  actions,
  level = 1,
}: {
  title: string;
  actions?: ReactNode;
  level?: 1 | 2;
}) {
  const Heading = level === 1 ? 'h1' : 'h2';
  return (
    <HeadingRow>
      <Heading>{title}</Heading>
      {actions && <div>{actions}</div>}
    </HeadingRow>
  );
}

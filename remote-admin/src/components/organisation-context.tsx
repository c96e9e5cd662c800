import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import type { BreadcrumbItem } from '@portal/shared-ui';

interface OrganisationFrame {
  organisationId: number;
  /** The crumbs the page inside the organisation layout adds after the organisation's name. */
  setCrumbs: (crumbs: readonly BreadcrumbItem[]) => void;
}

const OrganisationFrameContext = createContext<OrganisationFrame | null>(null);

/**
 * The organisation layout (name, breadcrumbs, tabs) frames the details, licence and user screens.
 * They live in other features, so they reach the layout through this context, never by import.
 */
export function OrganisationFrameProvider({
  organisationId,
  children,
}: {
  organisationId: number;
  children: (crumbs: readonly BreadcrumbItem[]) => ReactNode;
}) {
  const [crumbs, setCrumbs] = useState<readonly BreadcrumbItem[]>([]);
  return (
    <OrganisationFrameContext.Provider value={{ organisationId, setCrumbs }}>{children(crumbs)}</OrganisationFrameContext.Provider>
  );
}

/** The organisation whose screens these are (the route's :organisationId). */
export function useOrganisationId(): number {
  const frame = useContext(OrganisationFrameContext);
  if (!frame) throw new Error('useOrganisationId: not inside the organisation layout');
  return frame.organisationId;
}

/** Adds the page's own crumbs (e.g. Licences / Licence A) to the layout's breadcrumbs. */
export function useOrganisationCrumbs(crumbs: readonly BreadcrumbItem[]) {
  const frame = useContext(OrganisationFrameContext);
  const setCrumbs = frame?.setCrumbs;
  // Pages build the list on every render; its content decides whether it changed.
  const signature = JSON.stringify(crumbs);
  useEffect(() => {
    if (!setCrumbs) return;
    setCrumbs(JSON.parse(signature) as BreadcrumbItem[]);
    return () => setCrumbs([]);
  }, [setCrumbs, signature]);
}

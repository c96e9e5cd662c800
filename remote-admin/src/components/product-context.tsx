import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import type { LookupItem } from '@portal/contract';
import type { BreadcrumbItem } from '@portal/shared-ui';

interface ProductFrame {
  product: LookupItem;
  /** The crumbs the page inside the product layout adds after the product's name. */
  setCrumbs: (crumbs: readonly BreadcrumbItem[]) => void;
}

const ProductFrameContext = createContext<ProductFrame | null>(null);

/**
 * The product layout (name, breadcrumbs, tabs) frames the configuration and download screens.
 * Those live in other features, so they reach the layout through this context, never by import
 * (as the organisation screens do through organisation-context).
 */
export function ProductFrameProvider({
  product,
  children,
}: {
  product: LookupItem;
  children: (crumbs: readonly BreadcrumbItem[]) => ReactNode;
}) {
  const [crumbs, setCrumbs] = useState<readonly BreadcrumbItem[]>([]);
  return <ProductFrameContext.Provider value={{ product, setCrumbs }}>{children(crumbs)}</ProductFrameContext.Provider>;
}

/** The product whose screens these are (the route's :productId, as the `product` lookup names it). */
export function useFramedProduct(): LookupItem {
  const frame = useContext(ProductFrameContext);
  if (!frame) throw new Error('useFramedProduct: not inside the product layout');
  return frame.product;
}

/** Adds the page's own crumbs (e.g. Downloads / 3.0.0) to the layout's breadcrumbs. */
export function useProductCrumbs(crumbs: readonly BreadcrumbItem[]) {
  const frame = useContext(ProductFrameContext);
  const setCrumbs = frame?.setCrumbs;
  // Pages build the list on every render; its content decides whether it changed.
  const signature = JSON.stringify(crumbs);
  useEffect(() => {
    if (!setCrumbs) return;
    setCrumbs(JSON.parse(signature) as BreadcrumbItem[]);
    return () => setCrumbs([]);
  }, [setCrumbs, signature]);
}

import { useEffect } from 'react';
import { useProduct } from '../theme/product-context';

/** Sets `document.title` to "<page name> - <product name>" while the page is mounted. */
export function usePageTitle(pageName: string | null | undefined): void {
  const { productName } = useProduct();
  useEffect(() => {
    const previous = document.title;
    document.title = pageName ? `${pageName} - ${productName}` : productName;
    return () => {
      document.title = previous;
    };
  }, [pageName, productName]);
}

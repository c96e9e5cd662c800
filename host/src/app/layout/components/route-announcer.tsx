import { useEffect, useRef, useState, type RefObject } from 'react';
import { useLocation, VisuallyHidden } from '@portal/shared-ui';

/** How long a new page may take to render its heading (a remote loading, then its data). */
const HEADING_WAIT_MS = 5000;

/**
 * WCAG 2.4.3 / 4.1.3 for a single-page app: the browser neither moves focus nor says anything when
 * the route changes, so after each navigation focus goes to the new page's `h1` (or the main
 * region until one appears) and the new title is announced in a polite live region.
 */
export function RouteAnnouncer({ mainRef }: { mainRef: RefObject<HTMLElement | null> }) {
  const { pathname } = useLocation();
  const [message, setMessage] = useState('');
  const firstRender = useRef(true);

  useEffect(() => {
    if (firstRender.current) {
      // The first page is announced by the browser's own page load.
      firstRender.current = false;
      return;
    }
    const main = mainRef.current;
    if (!main) return;

    const moveFocus = (): boolean => {
      const heading = main.querySelector<HTMLElement>('h1');
      if (!heading) return false;
      if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
      // A page that already put focus somewhere on purpose (a form's first error) keeps it.
      if (!main.contains(document.activeElement) || document.activeElement === main) heading.focus();
      setMessage(document.title);
      return true;
    };
    main.focus({ preventScroll: true });
    if (moveFocus()) return;

    const observer = new MutationObserver(() => {
      if (moveFocus()) stop();
    });
    const timer = window.setTimeout(() => {
      stop();
      setMessage(document.title);
    }, HEADING_WAIT_MS);
    const stop = () => {
      observer.disconnect();
      window.clearTimeout(timer);
    };
    observer.observe(main, { childList: true, subtree: true });
    return stop;
  }, [pathname, mainRef]);

  return (
    <VisuallyHidden role="status" aria-live="polite" aria-atomic="true" data-testid="route-announcer">
      {message}
    </VisuallyHidden>
  );
}

import { useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { useLocation, VisuallyHidden } from '@portal/shared-ui';

/** How long a new page may take to render its heading (a remote loading, then its data). */
const HEADING_WAIT_MS = 5000;

/**
 * Calls `found` with the page's `h1` once it is there: now, or when it appears within
 * HEADING_WAIT_MS; `gaveUp` if it does not. Returns what stops the watch.
 */
function whenHeading(main: HTMLElement, found: (heading: HTMLElement) => void, gaveUp: () => void) {
  const present = main.querySelector<HTMLElement>('h1');
  if (present) {
    found(present);
    return () => undefined;
  }
  const observer = new MutationObserver(() => {
    const heading = main.querySelector<HTMLElement>('h1');
    if (!heading) return;
    stop();
    found(heading);
  });
  const timer = window.setTimeout(() => {
    stop();
    gaveUp();
  }, HEADING_WAIT_MS);
  const stop = () => {
    observer.disconnect();
    window.clearTimeout(timer);
  };
  observer.observe(main, { childList: true, subtree: true });
  return stop;
}

/**
 * WCAG 2.4.3 / 4.1.3 for a single-page app: the browser neither moves focus nor says anything when
 * the route changes, so after each navigation focus goes to the new page's `h1` (or the main
 * region until one appears) and the new title is announced in a polite live region.
 */
export function RouteAnnouncer({ mainRef }: { mainRef: RefObject<HTMLElement | null> }) {
  const { pathname } = useLocation();
  const [message, setMessage] = useState('');
  // The first page is focused and announced by the browser's own page load.
  const firstFocus = useRef(true);
  const firstAnnouncement = useRef(true);

  // A layout effect: focus moves in the commit that shows the new page, before the browser paints
  // or takes the next key. As a passive effect it came after both, so a Tab pressed on a page that
  // rendered at once (a category under another) went to the page's first stop, and focus then
  // jumped back to the heading.
  useLayoutEffect(() => {
    if (firstFocus.current) {
      firstFocus.current = false;
      return;
    }
    const main = mainRef.current;
    if (!main) return;
    main.focus({ preventScroll: true });
    return whenHeading(
      main,
      (heading) => {
        if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
        // A page that already put focus somewhere on purpose (a form's first error) keeps it.
        if (!main.contains(document.activeElement) || document.activeElement === main)
          heading.focus();
      },
      () => undefined,
    );
  }, [pathname, mainRef]);

  // A passive effect: the page sets its title in one of its own.
  useEffect(() => {
    if (firstAnnouncement.current) {
      firstAnnouncement.current = false;
      return;
    }
    const main = mainRef.current;
    if (!main) return;
    const announce = () => setMessage(document.title);
    return whenHeading(main, announce, announce);
  }, [pathname, mainRef]);

  return (
    <VisuallyHidden
      role="status"
      aria-live="polite"
      aria-atomic="true"
      data-testid="route-announcer"
    >
      {message}
    </VisuallyHidden>
  );
}

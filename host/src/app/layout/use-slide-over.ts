import { useCallback, useEffect, useRef, useState } from 'react';
import { useLocation } from '@portal/shared-ui';

/**
 * The small-screen sidebar: opening moves focus into it, Escape closes it and returns focus to
 * the menu button, and following a link closes it.
 */
export function useSlideOver() {
  const [open, setOpen] = useState(false);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<HTMLElement>(null);
  const { pathname } = useLocation();

  const close = useCallback((returnFocus: boolean) => {
    setOpen(false);
    if (returnFocus) buttonRef.current?.focus();
  }, []);

  useEffect(() => {
    setOpen(false);
  }, [pathname]);

  useEffect(() => {
    if (!open) return;
    panelRef.current?.querySelector<HTMLElement>('a[href], button')?.focus();
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') close(true);
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [open, close]);

  return { open, toggle: () => setOpen((o) => !o), close, buttonRef, panelRef };
}

import { useEffect, useId, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import styled from 'styled-components';
import { getTabbable } from './focus';

const Backdrop = styled.div`
  position: fixed;
  inset: 0;
  z-index: ${({ theme }) => theme.zIndices.modal};
  display: flex;
  align-items: center;
  justify-content: center;
  padding: ${({ theme }) => theme.space.md};
  background: ${({ theme }) => theme.colors.backdrop};
`;

const Dialog = styled.div`
  width: 100%;
  max-width: 560px;
  max-height: calc(100vh - 32px);
  overflow-y: auto;
  padding: ${({ theme }) => theme.space.lg};
  border-radius: ${({ theme }) => theme.radii.md};
  background: ${({ theme }) => theme.colors.surface};
  box-shadow: ${({ theme }) => theme.shadows.lg};

  &:focus {
    outline: none;
  }
`;

const Title = styled.h2`
  margin: ${({ theme }) => `0 0 ${theme.space.md}`};
  font-size: ${({ theme }) => theme.fontSizes.lg};
`;

export interface ModalProps {
  open: boolean;
  title: string;
  children?: ReactNode;
  /** Called on Escape or a backdrop click, and only when `dismissible`. */
  onClose?: () => void;
  /** Whether Escape and clicks outside close the dialog (the cookie consent must not). */
  dismissible?: boolean;
}

/** Open dialogs, innermost last: only the innermost one traps focus. */
const openDialogs: HTMLElement[] = [];

/**
 * A modal dialog: focus moves inside when it opens, Tab and Shift+Tab cycle within it, and focus
 * returns to where it was when it closes. An element marked `data-autofocus` gets the first focus.
 */
export function Modal({ open, title, children, onClose, dismissible = false }: ModalProps) {
  const titleId = useId();
  const dialogRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!open || !dialog) return;
    const previouslyFocused = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    openDialogs.push(dialog);

    const initial = dialog.querySelector<HTMLElement>('[data-autofocus]') ?? getTabbable(dialog)[0] ?? dialog;
    initial.focus();

    // Focus that escapes by other means than Tab (a click on the page behind, a script) comes back.
    const onFocusIn = (event: FocusEvent) => {
      if (openDialogs[openDialogs.length - 1] !== dialog) return;
      if (event.target instanceof Node && !dialog.contains(event.target)) {
        (getTabbable(dialog)[0] ?? dialog).focus();
      }
    };
    document.addEventListener('focusin', onFocusIn);

    const { overflow } = document.body.style;
    document.body.style.overflow = 'hidden';

    return () => {
      document.removeEventListener('focusin', onFocusIn);
      openDialogs.splice(openDialogs.indexOf(dialog), 1);
      if (openDialogs.length === 0) document.body.style.overflow = overflow;
      if (previouslyFocused?.isConnected) previouslyFocused.focus();
    };
  }, [open]);

  if (!open) return null;

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    if (event.key === 'Escape') {
      event.stopPropagation();
      if (dismissible) onClose?.();
      return;
    }
    if (event.key !== 'Tab') return;
    const tabbable = getTabbable(dialog);
    const first = tabbable[0];
    const last = tabbable[tabbable.length - 1];
    if (!first || !last) {
      event.preventDefault();
      dialog.focus();
      return;
    }
    const active = document.activeElement;
    if (event.shiftKey && (active === first || active === dialog)) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && (active === last || active === dialog)) {
      event.preventDefault();
      first.focus();
    }
  };

  return createPortal(
    <Backdrop
      data-testid="modal-backdrop"
      onMouseDown={(event) => {
        if (event.target === event.currentTarget && dismissible) onClose?.();
      }}
    >
      <Dialog
        ref={dialogRef}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        onKeyDown={onKeyDown}
      >
        <Title id={titleId}>{title}</Title>
        {children}
      </Dialog>
    </Backdrop>,
    document.body,
  );
}

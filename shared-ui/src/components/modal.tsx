import { useEffect, useId, useLayoutEffect, useRef, type KeyboardEvent, type MouseEvent, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import styled from 'styled-components';
import { getTabbable } from './focus';

/**
 * The native `<dialog>` opened with showModal(): the browser puts it in the top layer and makes the
 * rest of the page inert (no clicks, no focus, hidden from assistive technology), which a
 * hand-rolled overlay cannot fully do.
 */
const Dialog = styled.dialog`
  width: calc(100% - 2 * ${({ theme }) => theme.space.md});
  max-width: 560px;
  max-height: calc(100vh - 32px);
  overflow-y: auto;
  padding: 0;
  border: none;
  border-radius: ${({ theme }) => theme.radii.md};
  background: ${({ theme }) => theme.colors.surface};
  color: ${({ theme }) => theme.colors.text};
  box-shadow: ${({ theme }) => theme.shadows.lg};

  &::backdrop {
    background: ${({ theme }) => theme.colors.backdrop};
  }

  &:focus {
    outline: none;
  }
`;

/** The dialog's whole visible box: a click on the dialog element itself is a click on the backdrop. */
const Body = styled.div`
  padding: ${({ theme }) => theme.space.lg};
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

/**
 * A modal dialog: focus moves inside when it opens, Tab and Shift+Tab cycle within it (the browser
 * would otherwise let Tab leave for its own toolbar), and focus returns to where it was when it
 * closes. An element marked `data-autofocus` gets the first focus.
 */
export function Modal({ open, title, children, onClose, dismissible = false }: ModalProps) {
  const titleId = useId();
  const dialogRef = useRef<HTMLDialogElement>(null);
  const latest = useRef({ dismissible, onClose });
  latest.current = { dismissible, onClose };
  /** Set while we close it ourselves, so our own close() is not taken for the user's. */
  const closingRef = useRef(false);

  useLayoutEffect(() => {
    const dialog = dialogRef.current;
    if (!open || !dialog) return;
    const previouslyFocused = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!dialog.open) dialog.showModal();
    const initial = dialog.querySelector<HTMLElement>('[data-autofocus]') ?? getTabbable(dialog)[0] ?? dialog;
    initial.focus();

    return () => {
      closingRef.current = true;
      if (dialog.open) dialog.close();
      closingRef.current = false;
      if (previouslyFocused?.isConnected) previouslyFocused.focus();
    };
  }, [open]);

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!open || !dialog) return;
    // Escape is a "close request": refused for a dialog that needs an answer, otherwise reported.
    const onCancel = (event: Event) => {
      event.preventDefault();
      if (latest.current.dismissible) latest.current.onClose?.();
    };
    // Browsers let a repeated Escape close a dialog even when cancel is refused (abuse protection).
    // A dialog that needs an answer opens again; one the user may dismiss reports it.
    const onNativeClose = () => {
      if (closingRef.current || !dialog.isConnected) return;
      if (latest.current.dismissible) latest.current.onClose?.();
      else dialog.showModal();
    };
    dialog.addEventListener('cancel', onCancel);
    dialog.addEventListener('close', onNativeClose);
    return () => {
      dialog.removeEventListener('cancel', onCancel);
      dialog.removeEventListener('close', onNativeClose);
    };
  }, [open]);

  if (!open) return null;

  const onKeyDown = (event: KeyboardEvent<HTMLDialogElement>) => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    if (event.key === 'Escape') {
      // Handled here so that an enclosing page never sees it, in browsers that fire cancel or not.
      event.preventDefault();
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

  const onMouseDown = (event: MouseEvent<HTMLDialogElement>) => {
    if (event.target === event.currentTarget && dismissible) onClose?.();
  };

  return createPortal(
    <Dialog
      ref={dialogRef}
      aria-modal="true"
      aria-labelledby={titleId}
      tabIndex={-1}
      data-testid="modal-dialog"
      onKeyDown={onKeyDown}
      onMouseDown={onMouseDown}
    >
      <Body>
        <Title id={titleId}>{title}</Title>
        {children}
      </Body>
    </Dialog>,
    document.body,
  );
}

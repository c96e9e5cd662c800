import { act, screen } from '@testing-library/react';
import { useState } from 'react';
import { Button } from '../button';
import { ConfirmDialog } from '../../widgets/confirm-dialog';
import { Modal } from '../modal';
import { renderApp } from '../../test/render';

function Harness({ dismissible = false }: { dismissible?: boolean }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button onClick={() => setOpen(true)}>Open</Button>
      <Modal open={open} title="Cookies" dismissible={dismissible} onClose={() => setOpen(false)}>
        <Button>Allow all</Button>
        <Button onClick={() => setOpen(false)}>Deny all</Button>
      </Modal>
    </>
  );
}

describe('Modal', () => {
  it('is a modal dialog labelled by its title with the first focus inside', async () => {
    const { user } = renderApp(<Harness />);
    await user.click(screen.getByRole('button', { name: 'Open' }));
    const dialog = screen.getByRole('dialog', { name: 'Cookies' });
    expect(dialog).toHaveAttribute('aria-modal', 'true');
    // A native dialog opened as modal: the browser makes the rest of the page inert.
    expect(dialog.tagName).toBe('DIALOG');
    expect(dialog).toHaveAttribute('open');
    expect(screen.getByRole('button', { name: 'Allow all' })).toHaveFocus();
  });

  it('cycles focus with Tab and Shift+Tab inside the dialog', async () => {
    const { user } = renderApp(<Harness />);
    await user.click(screen.getByRole('button', { name: 'Open' }));
    const allow = screen.getByRole('button', { name: 'Allow all' });
    const deny = screen.getByRole('button', { name: 'Deny all' });
    await user.tab();
    expect(deny).toHaveFocus();
    await user.tab();
    expect(allow).toHaveFocus();
    await user.tab({ shift: true });
    expect(deny).toHaveFocus();
  });

  it('keeps a details summary inside in the focus cycle', async () => {
    const { user } = renderApp(
      <Modal open title="Cookies">
        <details>
          <summary>Preferences</summary>
          <p>Essential cookies</p>
        </details>
        <Button>Allow all</Button>
      </Modal>,
    );
    const summary = screen.getByText('Preferences');
    const allow = screen.getByRole('button', { name: 'Allow all' });
    expect(summary).toHaveFocus();
    await user.tab({ shift: true });
    expect(allow).toHaveFocus();
    await user.tab();
    expect(summary).toHaveFocus();
  });

  it('does not close on a backdrop click or Escape when not dismissible', async () => {
    const { user } = renderApp(<Harness />);
    await user.click(screen.getByRole('button', { name: 'Open' }));
    await user.click(screen.getByTestId('modal-dialog'));
    await user.keyboard('{Escape}');
    expect(screen.getByRole('dialog', { name: 'Cookies' })).toBeInTheDocument();
  });

  it('opens again when the browser closes a dialog that needs an answer (a repeated Escape)', async () => {
    const { user } = renderApp(<Harness />);
    await user.click(screen.getByRole('button', { name: 'Open' }));
    const dialog = screen.getByRole('dialog', { name: 'Cookies' }) as HTMLDialogElement;
    const cancel = new Event('cancel', { cancelable: true });
    dialog.dispatchEvent(cancel);
    expect(cancel.defaultPrevented).toBe(true);
    act(() => dialog.close());
    expect(dialog.open).toBe(true);
  });

  it('reports a close by the browser when dismissible', async () => {
    const { user } = renderApp(<Harness dismissible />);
    await user.click(screen.getByRole('button', { name: 'Open' }));
    const dialog = screen.getByRole('dialog', { name: 'Cookies' }) as HTMLDialogElement;
    act(() => dialog.close());
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('closes on Escape and on a backdrop click when dismissible', async () => {
    const { user } = renderApp(<Harness dismissible />);
    await user.click(screen.getByRole('button', { name: 'Open' }));
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Open' }));
    await user.click(screen.getByTestId('modal-dialog'));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('gives focus back to the opener when it closes', async () => {
    const { user } = renderApp(<Harness />);
    const opener = screen.getByRole('button', { name: 'Open' });
    await user.click(opener);
    await user.click(screen.getByRole('button', { name: 'Deny all' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(opener).toHaveFocus();
  });
});

describe('ConfirmDialog', () => {
  it('focuses Cancel first and reports the choice', async () => {
    const onConfirm = jest.fn();
    const onCancel = jest.fn();
    const { user } = renderApp(
      <ConfirmDialog
        open
        title="Delete user"
        message="Delete Ada Lovelace?"
        confirmLabel="Delete"
        onConfirm={onConfirm}
        onCancel={onCancel}
      />,
    );
    expect(screen.getByRole('dialog', { name: 'Delete user' })).toHaveTextContent('Delete Ada Lovelace?');
    expect(screen.getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    expect(onConfirm).toHaveBeenCalledTimes(1);
    await user.keyboard('{Escape}');
    expect(onCancel).toHaveBeenCalledTimes(1);
  });
});

import type { ReactNode } from 'react';
import { useTranslation } from '@portal/shared-ui';
import styled from 'styled-components';
import { Button, type ButtonVariant } from '@portal/shared-ui';
import { Modal } from '@portal/shared-ui';

const Actions = styled.div`
  display: flex;
  flex-wrap: wrap;
  justify-content: flex-end;
  gap: ${({ theme }) => theme.space.sm};
  margin-top: ${({ theme }) => theme.space.lg};
`;

export interface ConfirmDialogProps {
  open: boolean;
  title: string;
  message: ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
  /** Defaults to t('common.cancel'). */
  cancelLabel?: string;
  /** Defaults to 'danger': confirmations usually guard destructive actions. */
  confirmVariant?: ButtonVariant;
  /** Disables both buttons while the confirmed action runs. */
  busy?: boolean;
}

/** Asks before an action. Escape cancels; the first focus is on Cancel, the safe choice. */
export function ConfirmDialog({
  open,
  title,
  message,
  confirmLabel,
  onConfirm,
  onCancel,
  cancelLabel,
  confirmVariant = 'danger',
  busy = false,
}: ConfirmDialogProps) {
  const { t } = useTranslation();
  return (
    <Modal open={open} title={title} onClose={busy ? undefined : onCancel} dismissible>
      <div>{message}</div>
      <Actions>
        <Button variant="secondary" onClick={onCancel} disabled={busy} data-autofocus>
          {cancelLabel ?? t('common.cancel')}
        </Button>
        <Button variant={confirmVariant} onClick={onConfirm} disabled={busy}>
          {confirmLabel}
        </Button>
      </Actions>
    </Modal>
  );
}

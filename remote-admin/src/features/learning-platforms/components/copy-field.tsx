import { useState } from 'react';
import styled from 'styled-components';
import { Button, useTranslation, VisuallyHidden } from '@portal/shared-ui';
import { TextField } from '@portal/shared-ui/widgets';

const Row = styled.div`
  display: flex;
  align-items: flex-end;
  gap: ${({ theme }) => theme.space.sm};

  > :first-child {
    flex: 1;
    min-width: 0;
  }
  > button {
    margin-bottom: ${({ theme }) => theme.space.md};
  }
`;

/**
 * A value to paste elsewhere (a URL for the learning platform): read-only so it can be selected
 * but not changed, and a button that copies it, its outcome announced to screen readers.
 */
export function CopyField({ label, value, help }: { label: string; value: string; help?: string }) {
  const { t } = useTranslation('admin');
  const [status, setStatus] = useState<'idle' | 'copied' | 'failed'>('idle');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setStatus('copied');
    } catch {
      // No clipboard (an insecure origin, a refusal): the field stays selectable by hand.
      setStatus('failed');
    }
  };
  return (
    <Row>
      <TextField
        label={label}
        value={value}
        readOnly
        help={help}
        onFocus={(e) => e.currentTarget.select()}
      />
      <Button variant="secondary" onClick={() => void copy()}>
        {t('lti.copy')}
        <VisuallyHidden> {label}</VisuallyHidden>
      </Button>
      <VisuallyHidden role="status">
        {status === 'copied'
          ? t('lti.copied', { label })
          : status === 'failed'
            ? t('lti.copyFailed')
            : ''}
      </VisuallyHidden>
    </Row>
  );
}

import styled from 'styled-components';
import { Button, ButtonLink, ErrorBanner, SuccessBanner, useTranslation } from '@portal/shared-ui';
import type { SaveOutcome } from '../lib/save';

/** Groups a form's fields so a save in flight (or a read-only view) disables them all at once. */
export const FormFieldset = styled.fieldset`
  border: 0;
  padding: 0;
  margin: 0;
  min-width: 0;
`;

export const FormActions = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: ${({ theme }) => theme.space.sm};
  margin-top: ${({ theme }) => theme.space.md};
`;

/**
 * The banners above a form (docs/requirements.md#reusable-pieces, #errors-and-messages) for the outcome of its last save: the
 * success message, the server's field errors (named by `fieldLabels`), or the failure.
 */
export function SaveBanners({ outcome, fieldLabels }: { outcome: SaveOutcome; fieldLabels: Record<string, string> }) {
  const { t } = useTranslation('admin');
  if (outcome.kind === 'saved') return <SuccessBanner heading={t('successHeading')} messages={[outcome.message]} />;
  if (outcome.kind === 'invalid') return <ErrorBanner errors={outcome.errors} fieldLabels={fieldLabels} />;
  if (outcome.kind === 'failed') return <ErrorBanner errors={[t('saveFailed')]} />;
  return null;
}

/** Cancel (back to `cancelTo`) and Create or Save, the latter disabled while the save runs. */
export function SaveActions({ cancelTo, submitting = false, isNew = false }: { cancelTo: string; submitting?: boolean; isNew?: boolean }) {
  const { t } = useTranslation('admin');
  return (
    <FormActions>
      <ButtonLink variant="secondary" to={cancelTo}>
        {t('common.cancel')}
      </ButtonLink>
      <Button type="submit" disabled={submitting}>
        {t(isNew ? 'common.create' : 'common.save')}
      </Button>
    </FormActions>
  );
}

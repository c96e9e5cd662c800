import styled from 'styled-components';
import { OVERRIDE_REASON_MAX_LENGTH, type CriterionMark, type FieldErrors } from '@portal/contract';
import { Button, ErrorBanner, useTranslation } from '@portal/shared-ui';
import { FORM_ERROR, Form, TextField } from '@portal/shared-ui/forms';
import { formatNumber } from '../../../lib/format';

const Actions = styled.div`
  display: flex;
  gap: ${({ theme }) => theme.space.sm};
`;

interface OverrideValues {
  mark: string;
  reason: string;
}

export interface OverrideMarkFormProps {
  criterion: CriterionMark;
  /** The criterion's name, for the form's label. */
  name: string;
  /** Saves the override; resolves with field errors of a refused save, undefined when saved. */
  onSave: (mark: number, reason: string) => Promise<FieldErrors | undefined>;
  onClose: () => void;
}

/** Where the API names an override's fields (`overrides.0.mark`), the form names them (`mark`). */
function toFormErrors(errors: FieldErrors): Record<string, unknown> {
  const found: Record<string, unknown> = {};
  const rest: string[] = [];
  for (const [key, messages] of Object.entries(errors)) {
    const field = /^overrides\.\d+\.(mark|reason)$/.exec(key)?.[1];
    if (field) found[field] = messages;
    else rest.push(...messages);
  }
  return rest.length ? { ...found, [FORM_ERROR]: rest } : found;
}

/**
 * An educator replaces one criterion's mark of an image (issue #23 point 3): a mark between 0 and
 * the criterion's maximum and a required reason, both checked here and by the API.
 */
export function OverrideMarkForm({ criterion, name, onSave, onClose }: OverrideMarkFormProps) {
  const { t, i18n } = useTranslation('reports');
  const max = formatNumber(criterion.max, i18n.language);
  const validateMark = (value: string | undefined) => {
    const text = (value ?? '').trim().replace(',', '.');
    const mark = Number(text);
    return text === '' || !Number.isFinite(mark) || mark < 0 || mark > criterion.max
      ? t('feedback.markRange', { max })
      : undefined;
  };
  const validateReason = (value: string | undefined) =>
    !value?.trim()
      ? t('feedback.reasonRequired')
      : value.length > OVERRIDE_REASON_MAX_LENGTH
        ? t('feedback.tooLong', { max: OVERRIDE_REASON_MAX_LENGTH })
        : undefined;

  const onSubmit = async (values: OverrideValues) => {
    try {
      const errors = await onSave(Number(values.mark.trim().replace(',', '.')), values.reason.trim());
      if (errors) return toFormErrors(errors);
      onClose();
      return undefined;
    } catch {
      return { [FORM_ERROR]: [t('feedback.saveFailed')] };
    }
  };

  return (
    <Form<OverrideValues>
      onSubmit={onSubmit}
      initialValues={{ mark: criterion.mark === null ? '' : String(criterion.mark), reason: '' }}
      render={({ handleSubmit, submitting, submitError }) => (
        <form onSubmit={handleSubmit} noValidate aria-label={t('feedback.overrideFormLabel', { criterion: name })}>
          {submitError && <ErrorBanner errors={[submitError].flat().map(String)} />}
          <TextField
            name="mark"
            label={t('feedback.newMark', { max })}
            inputMode="decimal"
            required
            validate={validateMark}
            // eslint-disable-next-line jsx-a11y/no-autofocus -- the form opens on the educator's own click: focus follows them into it
            autoFocus
          />
          <TextField name="reason" label={t('feedback.overrideReason')} required validate={validateReason} />
          <Actions>
            <Button type="submit" disabled={submitting}>
              {t('feedback.saveOverride')}
            </Button>
            <Button variant="secondary" onClick={onClose} disabled={submitting}>
              {t('feedback.cancel')}
            </Button>
          </Actions>
        </form>
      )}
    />
  );
}

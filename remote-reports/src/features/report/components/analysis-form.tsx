import styled from 'styled-components';
import type { Evidence, LookupItem } from '@portal/contract';
import { Button, ErrorBanner, SelectField, useTranslation } from '@portal/shared-ui';
import { Field, Form, FORM_ERROR, type SubmissionErrors } from '@portal/shared-ui/forms';
import { ANALYSIS_MAX_LENGTH, ANALYSIS_STATUS, type AnalysedStatus } from '../../../config/constants';
import { useUpdateAnalysis } from '../api/update-analysis';
import { useAnalysisStatusLabel } from '../lib/analysis-status';
import { TextAreaField } from './text-area-field';

interface AnalysisFormValues {
  analysisStatus: string;
  analysis: string;
}

const Actions = styled.div`
  display: flex;
  gap: ${({ theme }) => theme.space.sm};
`;

const NON_FIELD_KEYS = ['non_field_errors', 'detail'];

export interface AnalysisFormProps {
  reportId: string;
  evidence: Evidence;
  statuses: readonly LookupItem[] | undefined;
  onClose: () => void;
}

/** Spec §4/§5: the owner accepts or rejects one image, with a required reason of at most 4000 characters. */
export function AnalysisForm({ reportId, evidence, statuses, onClose }: AnalysisFormProps) {
  const { t } = useTranslation('reports');
  const save = useUpdateAnalysis(reportId);
  const statusLabel = useAnalysisStatusLabel(statuses);
  // 'Not analysed' is where every image starts; it is never chosen (spec §4).
  const options = (statuses ?? [])
    .filter((status) => status.id !== ANALYSIS_STATUS.notAnalysed)
    .map((status) => ({ value: String(status.id), label: statusLabel(status.id) }));

  const initialValues: AnalysisFormValues = {
    analysisStatus: evidence.analysisStatus === ANALYSIS_STATUS.notAnalysed ? '' : String(evidence.analysisStatus),
    analysis: evidence.analysis ?? '',
  };

  const validate = (values: AnalysisFormValues) => {
    const errors: Partial<Record<keyof AnalysisFormValues, string>> = {};
    if (!values.analysisStatus) errors.analysisStatus = t('reports.analysis.required');
    if (!values.analysis?.trim()) errors.analysis = t('reports.analysis.required');
    else if (values.analysis.length > ANALYSIS_MAX_LENGTH)
      errors.analysis = t('reports.analysis.tooLong', { max: ANALYSIS_MAX_LENGTH });
    return errors;
  };

  const onSubmit = async (values: AnalysisFormValues): Promise<SubmissionErrors | undefined> => {
    try {
      const result = await save(evidence.id, {
        analysisStatus: Number(values.analysisStatus) as AnalysedStatus,
        analysis: values.analysis,
      });
      if (result.isSuccess) {
        onClose();
        return undefined;
      }
      if (result.isError && result.error) {
        const { analysisStatus, analysis, ...rest } = result.error;
        const general = Object.entries(rest).flatMap(([key, messages]) =>
          NON_FIELD_KEYS.includes(key) ? messages : messages.map((m) => `${key}: ${m}`),
        );
        return { analysisStatus, analysis, [FORM_ERROR]: general.length ? general : undefined };
      }
      return { [FORM_ERROR]: [t('reports.analysis.saveFailed')] };
    } catch {
      return { [FORM_ERROR]: [t('reports.analysis.saveFailed')] };
    }
  };

  return (
    <Form<AnalysisFormValues>
      onSubmit={onSubmit}
      initialValues={initialValues}
      validate={validate}
      render={({ handleSubmit, submitting, submitError }) => (
        <form onSubmit={handleSubmit} noValidate aria-label={t('reports.analysis.formLabel')}>
          {Array.isArray(submitError) && submitError.length > 0 && <ErrorBanner errors={submitError as string[]} />}
          <Field<string> name="analysisStatus">
            {({ input, meta }) => (
              <SelectField
                {...input}
                label={t('reports.analysis.status')}
                placeholder={t('reports.analysis.selectStatus')}
                options={options}
                required
                // eslint-disable-next-line jsx-a11y/no-autofocus -- the form opens on the user's own click (or the analysis route): focus follows them into it
                autoFocus
                error={fieldErrors(meta)}
              />
            )}
          </Field>
          <Field<string> name="analysis">
            {({ input, meta }) => (
              <TextAreaField
                {...input}
                label={t('reports.analysis.reason')}
                required
                help={t('reports.analysis.counter', { count: input.value.length, max: ANALYSIS_MAX_LENGTH })}
                errors={fieldErrors(meta)}
              />
            )}
          </Field>
          <Actions>
            <Button type="submit" disabled={submitting}>
              {t('reports.analysis.save')}
            </Button>
            <Button variant="secondary" onClick={onClose} disabled={submitting}>
              {t('reports.analysis.cancel')}
            </Button>
          </Actions>
        </form>
      )}
    />
  );
}

interface FieldMeta {
  error?: unknown;
  submitError?: unknown;
  touched?: boolean;
  submitFailed?: boolean;
  dirtySinceLastSubmit?: boolean;
}

/** Own checks once the field was left or a save was tried; server messages until it is edited again. */
function fieldErrors(meta: FieldMeta): string[] {
  const errors: string[] = [];
  if (meta.error && (meta.touched || meta.submitFailed)) errors.push(String(meta.error));
  if (meta.submitError && !meta.dirtySinceLastSubmit) {
    errors.push(...(Array.isArray(meta.submitError) ? meta.submitError.map(String) : [String(meta.submitError)]));
  }
  return errors;
}

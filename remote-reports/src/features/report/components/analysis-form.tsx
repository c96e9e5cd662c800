import styled from 'styled-components';
import type { Evidence, FieldErrors, LookupItem } from '@portal/contract';
import { Button, ErrorBanner, useLocation, useNavigate, useTranslation } from '@portal/shared-ui';
import { SelectField } from '@portal/shared-ui/widgets';
import { Field, Form } from '@portal/shared-ui/forms';
import { useReportsBase } from '../../../components/reports-base';
import {
  ANALYSIS_MAX_LENGTH,
  ANALYSIS_STATUS,
  type AnalysedStatus,
} from '../../../config/constants';
import { paths } from '../../../config/paths';
import { useAnalysisStatusLabel } from '../lib/analysis-status';
import type { AnalysisRouteState, ReportLocationState } from './analysis-route';
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

/**
 * docs/requirements.md#behaviour, #validation: the owner accepts or rejects one image, with a required reason of at most 4000
 * characters. Saving posts to the analysis route (analysis-route.tsx), which saves and comes back;
 * a refused save comes back with the values and the server's errors, shown here until edited.
 */
export function AnalysisForm({ reportId, evidence, statuses, onClose }: AnalysisFormProps) {
  const { t } = useTranslation('reports');
  const base = useReportsBase();
  const navigate = useNavigate();
  const location = useLocation();
  const returned = location.state as ReportLocationState | null;
  const refused = returned?.analyseEvidenceId === evidence.id ? returned.refused : undefined;
  const statusLabel = useAnalysisStatusLabel(statuses);
  // 'Not analysed' is where every image starts; it is never chosen (docs/requirements.md#analysis).
  const options = (statuses ?? [])
    .filter((status) => status.id !== ANALYSIS_STATUS.notAnalysed)
    .map((status) => ({ value: String(status.id), label: statusLabel(status.id) }));

  const initialValues: AnalysisFormValues = refused
    ? { analysisStatus: String(refused.values.analysisStatus), analysis: refused.values.analysis }
    : {
        analysisStatus:
          evidence.analysisStatus === ANALYSIS_STATUS.notAnalysed
            ? ''
            : String(evidence.analysisStatus),
        analysis: evidence.analysis ?? '',
      };
  const serverErrors: FieldErrors = refused?.errors ?? {};
  const general = refused
    ? refused.errors
      ? Object.entries(serverErrors)
          .filter(([key]) => key !== 'analysisStatus' && key !== 'analysis')
          .flatMap(([key, messages]) =>
            NON_FIELD_KEYS.includes(key) ? messages : messages.map((m) => `${key}: ${m}`),
          )
      : [t('analysis.saveFailed')]
    : [];

  const validate = (values: AnalysisFormValues) => {
    const errors: Partial<Record<keyof AnalysisFormValues, string>> = {};
    if (!values.analysisStatus) errors.analysisStatus = t('analysis.required');
    if (!values.analysis?.trim()) errors.analysis = t('analysis.required');
    else if (values.analysis.length > ANALYSIS_MAX_LENGTH)
      errors.analysis = t('analysis.tooLong', { max: ANALYSIS_MAX_LENGTH });
    return errors;
  };

  const onSubmit = async (values: AnalysisFormValues) => {
    const state: AnalysisRouteState = {
      submission: {
        analysisStatus: Number(values.analysisStatus) as AnalysedStatus,
        analysis: values.analysis,
      },
    };
    // After the submit event: a router transition started inside it would look to React 19 like
    // the form's own action (it then builds FormData from the form and tracks it as pending).
    await Promise.resolve();
    // Replacing the report's entry: the route replaces itself with the report again when done.
    navigate(paths.analysis.getHref(base, reportId, evidence.id), { replace: true, state });
  };

  return (
    <Form<AnalysisFormValues>
      onSubmit={onSubmit}
      initialValues={initialValues}
      validate={validate}
      render={({ handleSubmit, submitting, pristine }) => (
        <form onSubmit={handleSubmit} noValidate aria-label={t('analysis.formLabel')}>
          {pristine && general.length > 0 && <ErrorBanner errors={general} />}
          <Field<string> name="analysisStatus">
            {({ input, meta }) => (
              <SelectField
                {...input}
                label={t('analysis.status')}
                placeholder={t('analysis.selectStatus')}
                options={options}
                required
                // eslint-disable-next-line jsx-a11y/no-autofocus -- the form opens on the user's own click (or the analysis route): focus follows them into it
                autoFocus
                error={fieldErrors(meta, serverErrors.analysisStatus)}
              />
            )}
          </Field>
          <Field<string> name="analysis">
            {({ input, meta }) => (
              <TextAreaField
                {...input}
                label={t('analysis.reason')}
                required
                help={t('analysis.counter', {
                  count: input.value.length,
                  max: ANALYSIS_MAX_LENGTH,
                })}
                errors={fieldErrors(meta, serverErrors.analysis)}
              />
            )}
          </Field>
          <Actions>
            <Button type="submit" disabled={submitting}>
              {t('analysis.save')}
            </Button>
            <Button variant="secondary" onClick={onClose} disabled={submitting}>
              {t('analysis.cancel')}
            </Button>
          </Actions>
        </form>
      )}
    />
  );
}

interface FieldMeta {
  error?: unknown;
  touched?: boolean;
  submitFailed?: boolean;
  dirty?: boolean;
}

/**
 * Own checks once the field was left or a save was tried; the server's messages of a refused save
 * until the field is edited (it starts with the refused value, so it is not dirty before).
 */
function fieldErrors(meta: FieldMeta, server: readonly string[] | undefined): string[] {
  const errors: string[] = [];
  if (meta.error && (meta.touched || meta.submitFailed)) errors.push(String(meta.error));
  if (server && !meta.dirty) errors.push(...server);
  return errors;
}

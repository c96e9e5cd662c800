import { useId, useState } from 'react';
import styled from 'styled-components';
import { MARKING_CRITERIA, type MarkingCriterion, type MarkingScheme, type MarkingSchemeBody } from '@portal/contract';
import { ErrorBanner, Spinner, useTranslation } from '@portal/shared-ui';
import { CheckboxField, Form, FormSpy, TextField, type SubmissionErrors } from '@portal/shared-ui/forms';
import { FormActions, FormFieldset, SaveBanners } from '../../../components/form-layout';
import { Button } from '@portal/shared-ui';
import { submitSave, type SaveOutcome } from '../../../lib/save';
import { useMarkingScheme, useSaveMarkingScheme } from '../api/marking-scheme';

/** Each criterion's limits, in the order the form shows them (contract MarkingScheme). */
const FIELDS: Record<MarkingCriterion, readonly string[]> = {
  centring: ['weight', 'fullWithinMm', 'partialWithinMm'],
  collimation: ['weight', 'fullAtMostRatio', 'partialAtMostRatio'],
  kV: ['weight', 'min', 'max', 'partialTolerance'],
  mAs: ['weight', 'min', 'max', 'partialTolerancePercent'],
  dose: ['weight', 'drlDapMGyCm2', 'partialAtMostPercent'],
  exposureIndex: ['weight', 'fullWithin', 'partialWithin'],
  repeats: ['weight', 'fullAtMost', 'partialAtMost'],
};

/** Numbers are edited as text; a field's name is its path in the API's body and errors. */
interface SchemeFormValues {
  marked: boolean;
  use: Record<MarkingCriterion, boolean>;
  scheme: { passMark: string; criteria: Record<MarkingCriterion, Record<string, string>> };
}

function toFormValues(scheme: MarkingScheme | null): SchemeFormValues {
  const criteria = {} as SchemeFormValues['scheme']['criteria'];
  const use = {} as SchemeFormValues['use'];
  for (const name of MARKING_CRITERIA) {
    const rule = scheme?.criteria[name] as Record<string, number> | undefined;
    use[name] = Boolean(rule);
    criteria[name] = Object.fromEntries(FIELDS[name].map((f) => [f, rule?.[f] === undefined ? '' : String(rule[f])]));
  }
  return { marked: scheme !== null, use, scheme: { passMark: String(scheme?.passMark ?? 60), criteria } };
}

function toBody(values: SchemeFormValues): MarkingSchemeBody {
  if (!values.marked) return { scheme: null };
  const criteria: Record<string, Record<string, number>> = {};
  for (const name of MARKING_CRITERIA) {
    if (!values.use[name]) continue;
    criteria[name] = Object.fromEntries(FIELDS[name].map((f) => [f, Number(values.scheme.criteria[name][f])]));
  }
  return { scheme: { passMark: Number(values.scheme.passMark), criteria } as MarkingScheme };
}

/** The API names fields by dotted paths (`scheme.criteria.kV.max`); final-form looks them up nested. */
function nestErrors(errors: SubmissionErrors | undefined): SubmissionErrors | undefined {
  if (!errors) return errors;
  const nested: Record<string, unknown> = {};
  for (const [key, messages] of Object.entries(errors)) {
    const parts = key.split('.');
    let at = nested;
    parts.slice(0, -1).forEach((part) => {
      if (typeof at[part] !== 'object' || at[part] === null) at[part] = {};
      at = at[part] as Record<string, unknown>;
    });
    at[parts[parts.length - 1]!] = messages;
  }
  return nested;
}

const Criteria = styled.div`
  display: grid;
  grid-template-columns: repeat(auto-fit, minmax(280px, 1fr));
  gap: ${({ theme }) => theme.space.lg};
  margin-top: ${({ theme }) => theme.space.md};

  fieldset {
    border: 1px solid ${({ theme }) => theme.colors.border};
    border-radius: ${({ theme }) => theme.radii.md};
    padding: ${({ theme }) => theme.space.md};
    margin: 0;
  }

  legend {
    font-weight: ${({ theme }) => theme.fontWeights.medium};
    padding: ${({ theme }) => `0 ${theme.space.xs}`};
  }
`;

const Section = styled.section`
  margin-top: ${({ theme }) => theme.space.xl};
`;

/**
 * The configuration's marking scheme (issue #23), under its form: whether its images are marked,
 * the pass mark, and per criterion whether it counts, its weight and its limits. The API checks
 * the scheme against its JSON Schema and for contradicting limits; each message shows under its
 * field.
 */
export function MarkingSchemeSection({ productId, configurationId }: { productId: number; configurationId: number }) {
  const { t } = useTranslation('admin');
  const headingId = useId();
  const { data, error } = useMarkingScheme(productId, configurationId);
  return (
    <Section aria-labelledby={headingId}>
      <h2 id={headingId}>{t('markingScheme.title')}</h2>
      <p>{t('markingScheme.intro')}</p>
      {error ? (
        <ErrorBanner errors={[t('markingScheme.loadFailed')]} />
      ) : !data ? (
        <Spinner />
      ) : (
        <SchemeForm productId={productId} configurationId={configurationId} scheme={data.scheme} />
      )}
    </Section>
  );
}

function SchemeForm({ productId, configurationId, scheme }: { productId: number; configurationId: number; scheme: MarkingScheme | null }) {
  const { t } = useTranslation('admin');
  const save = useSaveMarkingScheme(productId, configurationId);
  const [outcome, setOutcome] = useState<SaveOutcome>({ kind: 'idle' });
  const [initial] = useState(() => toFormValues(scheme));

  const label = (name: MarkingCriterion, field: string) => `${t(`markingScheme.criteria.${name}`)}: ${t(`markingScheme.fields.${field}`)}`;
  const fieldLabels: Record<string, string> = { 'scheme.passMark': t('markingScheme.passMark'), 'scheme.criteria': t('markingScheme.criteriaLabel') };
  for (const name of MARKING_CRITERIA) for (const field of FIELDS[name]) fieldLabels[`scheme.criteria.${name}.${field}`] = label(name, field);

  // A number where the criterion counts; the API checks ranges and how the limits relate.
  const numberIn = (name: MarkingCriterion | null) => (value: string, all?: object) => {
    const values = all as SchemeFormValues | undefined;
    if (!values?.marked || (name && !values.use[name])) return undefined;
    return value === undefined || value.trim() === '' || !Number.isFinite(Number(value)) ? t('markingScheme.number') : undefined;
  };

  return (
    <Form<SchemeFormValues>
      initialValues={initial}
      onSubmit={async (values) =>
        nestErrors(
          await submitSave(() => save(toBody(values)), {
            setOutcome,
            onSaved: () => setOutcome({ kind: 'saved', message: t('markingScheme.saved') }),
          }),
        )
      }
      render={({ handleSubmit, submitting }) => (
        <form onSubmit={handleSubmit} noValidate aria-label={t('markingScheme.title')}>
          <SaveBanners outcome={outcome} fieldLabels={fieldLabels} />
          <FormFieldset disabled={submitting}>
            <CheckboxField name="marked" label={t('markingScheme.marked')} />
            <FormSpy<SchemeFormValues> subscription={{ values: true }}>
              {({ values }) =>
                values.marked ? (
                  <>
                    <TextField name="scheme.passMark" type="number" label={t('markingScheme.passMark')} validate={numberIn(null)} required />
                    <Criteria>
                      {MARKING_CRITERIA.map((name) => (
                        <fieldset key={name}>
                          <legend>{t(`markingScheme.criteria.${name}`)}</legend>
                          <CheckboxField name={`use.${name}`} label={t('markingScheme.use', { criterion: t(`markingScheme.criteria.${name}`) })} />
                          {values.use[name] &&
                            FIELDS[name].map((field) => (
                              <TextField
                                key={field}
                                name={`scheme.criteria.${name}.${field}`}
                                type="number"
                                step="any"
                                label={t(`markingScheme.fields.${field}`)}
                                validate={numberIn(name)}
                                required
                              />
                            ))}
                        </fieldset>
                      ))}
                    </Criteria>
                  </>
                ) : null
              }
            </FormSpy>
          </FormFieldset>
          <FormActions>
            <Button type="submit" disabled={submitting}>
              {t('markingScheme.save')}
            </Button>
          </FormActions>
        </form>
      )}
    />
  );
}

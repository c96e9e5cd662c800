import { useId, type FormEvent } from 'react';
import styled from 'styled-components';
import type { Product } from '@portal/contract';
import { Button, useTranslation } from '@portal/shared-ui';
import { SelectField, TextField, type SelectOption } from '@portal/shared-ui/widgets';
import { INSIGHT_CONFIGURATION_MAX_LENGTH, INSIGHT_DEFAULT_RANGE_DAYS, INSIGHT_MAX_RANGE_DAYS } from '../../../config/constants';
import { OrganisationPicker } from './organisation-picker';
import { FILTER_FIELDS, ORGANISATION_PARAM, type FilterError, type FilterField } from '../lib/insight-filters';

const Fields = styled.div`
  display: grid;
  grid-template-columns: repeat(auto-fit, minmax(180px, 1fr));
  column-gap: ${({ theme }) => theme.space.md};
  align-items: start;
`;

const Actions = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: ${({ theme }) => theme.space.sm};
  margin-bottom: ${({ theme }) => theme.space.lg};
`;

export interface InsightFiltersFormProps {
  values: Record<FilterField, string>;
  /** The screen's own check of the URL, or the API's 400 on a field. */
  errors: Partial<Record<FilterField | typeof ORGANISATION_PARAM, FilterError | readonly string[]>>;
  /**
   * Shown to those who pick the organisation (global administrators), with the URL's choice; null
   * for everyone else. The picker searches the organisations itself, however many there are.
   */
  organisations: { value: string } | null;
  products: readonly Product[];
  learners: readonly { userId: string; name: string }[];
  onApply: (values: Record<FilterField | typeof ORGANISATION_PARAM, string>) => void;
  onReset: () => void;
}

/** An option for a value the list does not hold (a link from elsewhere), so the select still shows it. */
function withCurrent(options: SelectOption[], value: string, label: string): SelectOption[] {
  return value && !options.some((o) => o.value === value) ? [...options, { value, label }] : options;
}

/**
 * The insight filters. The URL is the state: the fields show what it holds (the form is rebuilt
 * when it changes, so back and forward show their own values) and "Apply filters" writes it.
 */
export function InsightFiltersForm({ values, errors, organisations, products, learners, onApply, onReset }: InsightFiltersFormProps) {
  const { t } = useTranslation('reports');
  const headingId = useId();
  const message = (error: FilterError | readonly string[] | undefined) =>
    error === undefined
      ? undefined
      : typeof error === 'string'
        ? t(`insight.errors.${error}`, { days: INSIGHT_MAX_RANGE_DAYS, max: INSIGHT_CONFIGURATION_MAX_LENGTH })
        : error;

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    // Read from the controls themselves (FormData differs between browsers and test environments).
    const { elements } = event.currentTarget;
    const read = (name: string) => {
      const control = elements.namedItem(name);
      return control instanceof HTMLInputElement || control instanceof HTMLSelectElement ? control.value : '';
    };
    const values = {
      ...(Object.fromEntries(FILTER_FIELDS.map((f) => [f, read(f)])) as Record<FilterField, string>),
      [ORGANISATION_PARAM]: organisations ? read(ORGANISATION_PARAM) : '',
    };
    // After the submit event: the router navigates in a transition, and a transition started
    // inside a form's submit makes React collect the form's FormData for useFormStatus, which
    // this form does not use (and which jsdom's test FormData cannot build).
    queueMicrotask(() => onApply(values));
  };

  const productOptions = withCurrent(
    products.map((p) => ({ value: String(p.id), label: p.name })),
    values.productId,
    t('insight.productOption', { id: values.productId }),
  );
  const learnerOptions = withCurrent(
    learners.map((l) => ({ value: String(l.userId), label: l.name })),
    values.learner,
    t('insight.learnerOption', { id: values.learner }),
  );

  return (
    <form aria-labelledby={headingId} onSubmit={onSubmit} noValidate>
      <h2 id={headingId}>{t('insight.filters')}</h2>
      <Fields>
        {organisations && (
          <OrganisationPicker
            name={ORGANISATION_PARAM}
            label={t('insight.organisation')}
            help={t('insight.organisationPicker.help')}
            defaultValue={organisations.value}
            error={message(errors[ORGANISATION_PARAM])}
          />
        )}
        <TextField
          type="date"
          name="from"
          label={t('insight.from')}
          defaultValue={values.from}
          help={t('insight.rangeHelp', { days: INSIGHT_DEFAULT_RANGE_DAYS })}
          error={message(errors.from)}
        />
        <TextField type="date" name="to" label={t('insight.to')} defaultValue={values.to} error={message(errors.to)} />
        <SelectField
          name="productId"
          label={t('insight.product')}
          defaultValue={values.productId}
          placeholder={t('insight.allProducts')}
          options={productOptions}
          error={message(errors.productId)}
        />
        <TextField
          name="configuration"
          label={t('insight.configuration')}
          defaultValue={values.configuration}
          help={t('insight.configurationHelp')}
          error={message(errors.configuration)}
        />
        <SelectField
          name="learner"
          label={t('insight.learner')}
          defaultValue={values.learner}
          placeholder={t('insight.allLearners')}
          options={learnerOptions}
          error={message(errors.learner)}
        />
      </Fields>
      <Actions>
        <Button type="submit">{t('insight.apply')}</Button>
        <Button type="button" variant="secondary" onClick={onReset}>
          {t('insight.reset')}
        </Button>
      </Actions>
    </form>
  );
}

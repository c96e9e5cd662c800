import { useState } from 'react';
import styled from 'styled-components';
import {
  ADMIN_TEXT_MAX_LENGTH,
  LICENSE_BLOCK_MESSAGES,
  type LicenseBlock,
  type LicenseBlockInput,
} from '@portal/contract';
import type { ApiResult } from '@portal/shared-auth';
import { ErrorBanner, PageSpinner, useTranslation } from '@portal/shared-ui';
import {
  CheckboxField,
  CheckboxGroupField,
  DateField,
  Form,
  maxLength,
  minInteger,
  SelectField,
  TextField,
  type Validator,
} from '@portal/shared-ui/forms';
import { lookupOptions, useLookup } from '../../../api/get-lookup';
import { useAdminBase } from '../../../components/admin-base';
import { FormFieldset, SaveActions, SaveBanners } from '../../../components/form-layout';
import { INACTIVE_DURATION_CODE } from '../../../config/constants';
import { paths } from '../../../config/paths';
import { submitSave, type SaveOutcome } from '../../../lib/save';

export interface LicenceFormValues {
  licenseName: string;
  salesReference: string;
  duration: string;
  /** yyyy-MM-dd once a real date is typed (DateField). */
  startDate: string;
  expiryDate: string;
  numberOfSeats: string;
  isActive: boolean;
  entitlements: number[];
}

const toFormValues = (licence?: LicenseBlock): LicenceFormValues => ({
  licenseName: licence?.licenseName ?? '',
  salesReference: licence?.salesReference ?? '',
  duration: licence ? String(licence.duration) : '',
  startDate: licence?.startDate ?? '',
  expiryDate: licence?.expiryDate ?? '',
  numberOfSeats: licence ? String(licence.numberOfSeats) : '',
  isActive: licence?.isActive ?? true,
  entitlements: licence?.entitlements ?? [],
});

const toInput = (values: LicenceFormValues): LicenseBlockInput => ({
  licenseName: values.licenseName.trim(),
  salesReference: values.salesReference.trim() === '' ? null : values.salesReference.trim(),
  duration: Number(values.duration),
  startDate: values.startDate,
  // Left empty, the API computes it from the start date and the duration.
  expiryDate: values.expiryDate === '' ? null : values.expiryDate,
  numberOfSeats: Number(values.numberOfSeats.trim()),
  isActive: values.isActive,
  entitlements: values.entitlements,
});

const textMax = maxLength(ADMIN_TEXT_MAX_LENGTH);
const seatsRule = minInteger(0);

/** The same check as the API's, so the mistake shows before a save (both are wire days, which sort as text). */
const notBeforeStart: Validator<string> = (value, allValues) => {
  const start = (allValues as Partial<LicenceFormValues> | undefined)?.startDate;
  return typeof value === 'string' && value !== '' && typeof start === 'string' && start !== '' && value < start
    ? LICENSE_BLOCK_MESSAGES.expiryBeforeStart
    : undefined;
};

const Columns = styled.div`
  display: grid;
  grid-template-columns: repeat(auto-fit, minmax(260px, 1fr));
  column-gap: ${({ theme }) => theme.space.lg};
`;

export interface LicenceFormProps {
  organisationId: number;
  licence?: LicenseBlock;
  save: (input: LicenseBlockInput) => Promise<ApiResult<LicenseBlock>>;
  onCreated?: (licence: LicenseBlock) => void;
  readOnly?: boolean;
}

/** docs/requirements.md#data, #validation licence block create and edit form. */
export function LicenceForm({ organisationId, licence, save, onCreated, readOnly = false }: LicenceFormProps) {
  const { t } = useTranslation('admin');
  const base = useAdminBase();
  const [outcome, setOutcome] = useState<SaveOutcome>({ kind: 'idle' });
  const durations = useLookup('license_duration');
  const entitlements = useLookup('entitlement');
  const isNew = !licence;

  if (durations.error || entitlements.error) return <ErrorBanner errors={[t('lookupFailed')]} />;
  if (!durations.data || !entitlements.data) return <PageSpinner />;
  const entitlementOptions = entitlements.data.map((e) => ({ value: e.id, label: e.name }));

  // docs/requirements.md#administration: while the stored licence has not started ("inactive" duration) its start is fixed.
  const inactiveIds = durations.data.filter((d) => d.code === INACTIVE_DURATION_CODE).map((d) => d.id);
  const startLocked = !isNew && inactiveIds.includes(licence.duration);

  const labels: Record<keyof LicenceFormValues, string> = {
    licenseName: t('licence.licenseName'),
    salesReference: t('licence.salesReference'),
    duration: t('licence.duration'),
    startDate: t('licence.startDate'),
    expiryDate: t('licence.expiryDate'),
    numberOfSeats: t('licence.numberOfSeats'),
    isActive: t('licence.isActive'),
    entitlements: t('licence.entitlements'),
  };

  return (
    <Form<LicenceFormValues>
      initialValues={toFormValues(licence)}
      onSubmit={(values) =>
        submitSave(() => save(toInput(values)), {
          setOutcome,
          onSaved: (saved) => {
            if (isNew) onCreated?.(saved);
            else setOutcome({ kind: 'saved', message: t('licence.saved') });
          },
        })
      }
      render={({ handleSubmit, submitting }) => (
        <form onSubmit={handleSubmit} noValidate aria-label={t(isNew ? 'licence.new' : 'licence.details')}>
          <SaveBanners outcome={outcome} fieldLabels={labels} />
          <FormFieldset disabled={readOnly || submitting}>
            <Columns>
              <div>
                <TextField name="licenseName" label={labels.licenseName} required validate={textMax} />
                <TextField name="salesReference" label={labels.salesReference} validate={textMax} />
                <SelectField
                  name="duration"
                  label={labels.duration}
                  required
                  placeholder={t('select')}
                  options={lookupOptions(durations.data)}
                />
                <DateField
                  name="startDate"
                  label={labels.startDate}
                  required
                  readOnly={startLocked}
                  help={startLocked ? t('licence.startDateLocked') : undefined}
                />
                <DateField
                  name="expiryDate"
                  label={labels.expiryDate}
                  validate={notBeforeStart}
                  help={t('licence.expiryDateHelp')}
                />
                <TextField
                  name="numberOfSeats"
                  label={labels.numberOfSeats}
                  type="number"
                  inputMode="numeric"
                  min={0}
                  step={1}
                  required
                  validate={seatsRule}
                  help={licence ? t('licences.seatsUsed', { used: licence.seatsUsed, total: licence.numberOfSeats }) : undefined}
                />
                <CheckboxField name="isActive" label={labels.isActive} />
              </div>
              <div>
                <CheckboxGroupField<number>
                  name="entitlements"
                  legend={labels.entitlements}
                  required
                  options={entitlementOptions}
                />
              </div>
            </Columns>
          </FormFieldset>
          {!readOnly && <SaveActions cancelTo={paths.licences.getHref(base, organisationId)} submitting={submitting} isNew={isNew} />}
        </form>
      )}
    />
  );
}

import { useState } from 'react';
import styled from 'styled-components';
import {
  ADMIN_TEXT_MAX_LENGTH,
  GRADE_RELEASE_POLICIES,
  type GradeReleasePolicy,
  type Organisation,
  type OrganisationInput,
} from '@portal/contract';
import { usePermissions, type ApiResult } from '@portal/shared-auth';
import { ErrorBanner, PageSpinner, useTranslation } from '@portal/shared-ui';
import { CheckboxField, Form, maxLength, SelectField, TextField } from '@portal/shared-ui/forms';
import { lookupOptions, useLookup } from '../../../api/get-lookup';
import { useAdminBase } from '../../../components/admin-base';
import { FormFieldset, SaveActions, SaveBanners } from '../../../components/form-layout';
import { paths } from '../../../config/paths';
import { ACTIVATE_ORGANISATION } from '../../../config/permissions';
import { submitSave, type SaveOutcome } from '../../../lib/save';

/** Form values: selects hold the lookup id as text, blank optional texts are ''. */
export interface OrganisationFormValues {
  name: string;
  isActive: boolean;
  city: string;
  country: string;
  mainContact: string;
  primaryTechnicalContact: string;
  learningManagementSystem: string;
  defaultLanguage: string;
  radiationUnitSystem: string;
  measurementStandard: string;
  gradeRelease: GradeReleasePolicy;
}

const LOOKUP_FIELDS = [
  ['country', 'country'],
  ['learningManagementSystem', 'learning_management_system'],
  ['defaultLanguage', 'language'],
  ['radiationUnitSystem', 'radiation_units'],
  ['measurementStandard', 'measurement_standard'],
] as const;

export const toFormValues = (organisation?: Organisation): OrganisationFormValues => ({
  name: organisation?.name ?? '',
  isActive: organisation?.isActive ?? true,
  city: organisation?.city ?? '',
  country: organisation?.country ? String(organisation.country) : '',
  mainContact: organisation?.mainContact ?? '',
  primaryTechnicalContact: organisation?.primaryTechnicalContact ?? '',
  learningManagementSystem: organisation?.learningManagementSystem ? String(organisation.learningManagementSystem) : '',
  defaultLanguage: organisation?.defaultLanguage ? String(organisation.defaultLanguage) : '',
  radiationUnitSystem: organisation?.radiationUnitSystem ? String(organisation.radiationUnitSystem) : '',
  measurementStandard: organisation?.measurementStandard ? String(organisation.measurementStandard) : '',
  gradeRelease: organisation?.gradeRelease ?? 'automatic',
});

const optional = (text: string) => (text.trim() === '' ? null : text.trim());

function toInput(values: OrganisationFormValues, withActive: boolean): OrganisationInput {
  return {
    name: values.name.trim(),
    ...(withActive ? { isActive: values.isActive } : {}),
    city: optional(values.city),
    country: Number(values.country),
    mainContact: values.mainContact.trim(),
    primaryTechnicalContact: optional(values.primaryTechnicalContact),
    learningManagementSystem: Number(values.learningManagementSystem),
    defaultLanguage: Number(values.defaultLanguage),
    radiationUnitSystem: Number(values.radiationUnitSystem),
    measurementStandard: Number(values.measurementStandard),
    gradeRelease: values.gradeRelease,
  };
}

const textMax = maxLength(ADMIN_TEXT_MAX_LENGTH);

const Columns = styled.div`
  display: grid;
  grid-template-columns: repeat(auto-fit, minmax(260px, 1fr));
  column-gap: ${({ theme }) => theme.space.lg};
`;

export interface OrganisationFormProps {
  organisation?: Organisation;
  save: (input: OrganisationInput) => Promise<ApiResult<Organisation>>;
  /** After a create: where to go. After an edit the form stays, with the §8 message. */
  onCreated?: (organisation: Organisation) => void;
  readOnly?: boolean;
}

/** docs/requirements.md#data, #validation organisation create and edit form. */
export function OrganisationForm({ organisation, save, onCreated, readOnly = false }: OrganisationFormProps) {
  const { t } = useTranslation('admin');
  const base = useAdminBase();
  const can = usePermissions();
  const [outcome, setOutcome] = useState<SaveOutcome>({ kind: 'idle' });
  const lookups = {
    country: useLookup('country'),
    learningManagementSystem: useLookup('learning_management_system'),
    defaultLanguage: useLookup('language'),
    radiationUnitSystem: useLookup('radiation_units'),
    measurementStandard: useLookup('measurement_standard'),
  };
  const isNew = !organisation;
  const mayActivate = can(ACTIVATE_ORGANISATION);

  if (LOOKUP_FIELDS.some(([name]) => lookups[name].error)) return <ErrorBanner errors={[t('lookupFailed')]} />;
  if (LOOKUP_FIELDS.some(([name]) => !lookups[name].data)) return <PageSpinner />;

  const labels: Record<keyof OrganisationFormValues, string> = {
    name: t('organisation.name'),
    isActive: t('organisation.isActive'),
    city: t('organisation.city'),
    country: t('organisation.country'),
    mainContact: t('organisation.mainContact'),
    primaryTechnicalContact: t('organisation.primaryTechnicalContact'),
    learningManagementSystem: t('organisation.learningManagementSystem'),
    defaultLanguage: t('organisation.defaultLanguage'),
    radiationUnitSystem: t('organisation.radiationUnitSystem'),
    measurementStandard: t('organisation.measurementStandard'),
    gradeRelease: t('organisation.gradeRelease'),
  };

  const lookupSelect = (name: (typeof LOOKUP_FIELDS)[number][0]) => (
    <SelectField
      name={name}
      label={labels[name]}
      required
      placeholder={t('select')}
      options={lookupOptions(lookups[name].data)}
    />
  );

  return (
    <Form<OrganisationFormValues>
      initialValues={toFormValues(organisation)}
      onSubmit={(values) =>
        submitSave(() => save(toInput(values, mayActivate)), {
          setOutcome,
          onSaved: (saved) => {
            if (isNew) onCreated?.(saved);
            else setOutcome({ kind: 'saved', message: t('organisation.saved') });
          },
        })
      }
      render={({ handleSubmit, submitting }) => (
        <form onSubmit={handleSubmit} noValidate aria-label={t(isNew ? 'organisation.new' : 'organisation.details')}>
          <SaveBanners outcome={outcome} fieldLabels={labels} />
          <FormFieldset disabled={readOnly || submitting}>
            <Columns>
              <div>
                <TextField name="name" label={labels.name} required validate={textMax} autoComplete="organization" />
                <TextField name="city" label={labels.city} validate={textMax} />
                {lookupSelect('country')}
                <TextField
                  name="mainContact"
                  label={labels.mainContact}
                  help={t('organisation.mainContactHelp')}
                  required
                  validate={textMax}
                />
                <TextField name="primaryTechnicalContact" label={labels.primaryTechnicalContact} validate={textMax} />
              </div>
              <div>
                {lookupSelect('learningManagementSystem')}
                {lookupSelect('defaultLanguage')}
                {lookupSelect('radiationUnitSystem')}
                {lookupSelect('measurementStandard')}
                <SelectField
                  name="gradeRelease"
                  label={labels.gradeRelease}
                  help={t('organisation.gradeReleaseHelp')}
                  required
                  options={GRADE_RELEASE_POLICIES.map((policy) => ({
                    value: policy,
                    label: t(`organisation.gradeReleasePolicy.${policy}`),
                  }))}
                />
                {mayActivate && <CheckboxField name="isActive" label={labels.isActive} />}
              </div>
            </Columns>
          </FormFieldset>
          {!readOnly && <SaveActions cancelTo={paths.organisations.getHref(base)} submitting={submitting} isNew={isNew} />}
        </form>
      )}
    />
  );
}

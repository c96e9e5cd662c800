import { useState } from 'react';
import type { ProductConfiguration, ProductConfigurationInput } from '@portal/contract';
import { useAuth, type ApiResult } from '@portal/shared-auth';
import { ErrorBanner, PageSpinner, useTranslation } from '@portal/shared-ui';
import { CheckboxField, FileUpload, Form, maxLength, SelectField, TextField, type UploadedFileValue } from '@portal/shared-ui/forms';
import { lookupOptions, useLookup } from '../../../api/get-lookup';
import { useAdminBase } from '../../../components/admin-base';
import { FormFieldset, SaveActions, SaveBanners } from '../../../components/form-layout';
import { CONFIG_FILE_EXTENSIONS, CONFIG_UPLOAD_URL, TRANSLATION_UPLOAD_URL } from '../../../config/constants';
import { paths } from '../../../config/paths';
import { submitSave, type SaveOutcome } from '../../../lib/save';

/** The API's bound on names (contract ProductConfigurationInput). */
const NAME_MAX_LENGTH = 255;

export interface ConfigurationFormValues {
  configurationName: string;
  configFile: UploadedFileValue | null;
  translationFile: UploadedFileValue | null;
  /** The lookup id as text, as selects hold it. */
  practiceViewCategory: string;
  isSelfAssessment: boolean;
}

const toFormValues = (configuration?: ProductConfiguration): ConfigurationFormValues => ({
  configurationName: configuration?.configurationName ?? '',
  configFile: configuration?.configFile ?? null,
  translationFile: configuration?.translationFile ?? null,
  practiceViewCategory: configuration ? String(configuration.practiceViewCategory) : '',
  // docs/requirements.md#data, #limits-and-defaults: a new configuration is a self-assessment one unless unticked.
  isSelfAssessment: configuration?.isSelfAssessment ?? true,
});

/** Only called once the required configuration file is there (field validation). */
const toInput = (values: ConfigurationFormValues): ProductConfigurationInput => ({
  configurationName: values.configurationName.trim(),
  practiceViewCategory: Number(values.practiceViewCategory),
  isSelfAssessment: values.isSelfAssessment,
  configFile: values.configFile?.id ?? '',
  translationFile: values.translationFile?.id ?? null,
});

const nameMax = maxLength(NAME_MAX_LENGTH);

export interface ConfigurationFormProps {
  productId: number;
  configuration?: ProductConfiguration;
  save: (input: ProductConfigurationInput) => Promise<ApiResult<ProductConfiguration>>;
  onCreated?: (configuration: ProductConfiguration) => void;
}

/**
 * docs/requirements.md#administration, #data, #validation product configuration create and edit form: a name, the JSON configuration file
 * (required) and translation file, both uploaded as soon as chosen with progress, the practice
 * view category of this product and whether it is a self-assessment.
 */
export function ConfigurationForm({ productId, configuration, save, onCreated }: ConfigurationFormProps) {
  const { t } = useTranslation('admin');
  const base = useAdminBase();
  const { getAccessToken } = useAuth();
  const [outcome, setOutcome] = useState<SaveOutcome>({ kind: 'idle' });
  const categories = useLookup('practice_view_category', undefined, { productId });
  const isNew = !configuration;

  if (categories.error) return <ErrorBanner errors={[t('lookupFailed')]} />;
  if (!categories.data) return <PageSpinner />;

  const labels: Record<keyof ConfigurationFormValues, string> = {
    configurationName: t('configuration.configurationName'),
    configFile: t('configuration.configFile'),
    translationFile: t('configuration.translationFile'),
    practiceViewCategory: t('configuration.practiceViewCategory'),
    isSelfAssessment: t('configuration.isSelfAssessment'),
  };

  return (
    <Form<ConfigurationFormValues>
      initialValues={toFormValues(configuration)}
      onSubmit={(values) =>
        submitSave(() => save(toInput(values)), {
          setOutcome,
          onSaved: (saved) => {
            if (isNew) onCreated?.(saved);
            else setOutcome({ kind: 'saved', message: t('configuration.saved') });
          },
        })
      }
      render={({ handleSubmit, submitting }) => (
        <form onSubmit={handleSubmit} noValidate aria-label={t(isNew ? 'configuration.new' : 'configuration.details')}>
          <SaveBanners outcome={outcome} fieldLabels={labels} />
          <FormFieldset disabled={submitting}>
            <TextField name="configurationName" label={labels.configurationName} required validate={nameMax} />
            <FileUpload
              name="configFile"
              label={labels.configFile}
              uploadUrl={CONFIG_UPLOAD_URL}
              getAccessToken={getAccessToken}
              allowedExtensions={CONFIG_FILE_EXTENSIONS}
              required
              help={t('configuration.configFileHelp')}
            />
            <FileUpload
              name="translationFile"
              label={labels.translationFile}
              uploadUrl={TRANSLATION_UPLOAD_URL}
              getAccessToken={getAccessToken}
              allowedExtensions={CONFIG_FILE_EXTENSIONS}
              help={t('configuration.translationFileHelp')}
            />
            <SelectField
              name="practiceViewCategory"
              label={labels.practiceViewCategory}
              required
              placeholder={t('select')}
              options={lookupOptions(categories.data)}
            />
            <CheckboxField name="isSelfAssessment" label={labels.isSelfAssessment} />
          </FormFieldset>
          <SaveActions cancelTo={paths.product.getHref(base, productId)} submitting={submitting} isNew={isNew} />
        </form>
      )}
    />
  );
}

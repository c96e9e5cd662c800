import { useState } from 'react';
import {
  INSTALLER_EXTENSIONS,
  INSTALLER_MAX_BYTES,
  OPERATING_SYSTEMS,
  VERSION_PATTERN,
  type FieldErrors,
  type LookupItem,
  type SimulationDownload,
  type SimulationDownloadInput,
} from '@portal/contract';
import { useAuth, type ApiResult } from '@portal/shared-auth';
import { useTranslation } from '@portal/shared-ui';
import { TextField as TextControl } from '@portal/shared-ui/widgets';
import {
  CheckboxField,
  FileUpload,
  Form,
  SelectField,
  TextField,
  useField,
  type UploadedFileValue,
  type Validator,
} from '@portal/shared-ui/forms';
import { useAdminBase } from '../../../components/admin-base';
import { FormFieldset, SaveActions, SaveBanners } from '../../../components/form-layout';
import { INSTALLER_UPLOAD_URL } from '../../../config/constants';
import { paths } from '../../../config/paths';
import { submitSave, type SaveOutcome } from '../../../lib/save';
import { InstallerFile } from './installer-file';

export interface DownloadFormValues {
  version: string;
  operatingSystem: string;
  fileUrl: string;
  file: UploadedFileValue | null;
  isActive: boolean;
}

const toFormValues = (download?: SimulationDownload): DownloadFormValues => ({
  version: download?.version ?? '',
  operatingSystem: download?.operatingSystem ?? '',
  fileUrl: download?.fileUrl ?? '',
  file: download?.file ?? null,
  // docs/requirements.md#saving-and-deleting, #limits-and-defaults: a new version is offered to learners unless unticked.
  isActive: download?.isActive ?? true,
});

const toInput = (values: DownloadFormValues): SimulationDownloadInput => ({
  version: values.version.trim(),
  operatingSystem: values.operatingSystem as SimulationDownloadInput['operatingSystem'],
  fileUrl: values.fileUrl.trim(),
  fileId: values.file?.id ?? null,
  isActive: values.isActive,
});

/**
 * The server may name a version's parts (docs/requirements.md#data: majorVersion, minorVersion, patchVersion); the
 * form has one version field, so their messages go under it.
 */
const VERSION_PARTS = ['majorVersion', 'minorVersion', 'patchVersion'] as const;
export function versionErrorsUnderVersion(errors: FieldErrors): FieldErrors {
  const parts = VERSION_PARTS.flatMap((part) => errors[part] ?? []);
  if (parts.length === 0) return errors;
  const rest = Object.fromEntries(
    Object.entries(errors).filter(([key]) => !(VERSION_PARTS as readonly string[]).includes(key)),
  );
  return { ...rest, version: [...(errors.version ?? []), ...parts] };
}

const versionPattern = new RegExp(VERSION_PATTERN);

/** The existing installer's download action, beside the upload that may replace it. */
function StoredInstaller() {
  const { input } = useField<UploadedFileValue | null>('file', { subscription: { value: true } });
  const file = input.value;
  // Only a stored (saved) installer can be fetched; a fresh upload is not attached to anything yet.
  if (!file || file.state !== 'saved') return null;
  return <InstallerFile fileId={file.id} originalName={file.originalName} />;
}

export interface DownloadFormProps {
  productId: number;
  /** The product as the `product` lookup names it: shown, never edited (docs/requirements.md#administration). */
  product: LookupItem;
  download?: SimulationDownload;
  save: (input: SimulationDownloadInput) => Promise<ApiResult<SimulationDownload>>;
  onCreated?: (download: SimulationDownload) => void;
  readOnly?: boolean;
}

/**
 * docs/requirements.md#administration 'Download details': product (read only), version, operating system, file URL, the
 * installer (existing one downloadable, a new one uploaded with progress), 'Activate version'
 * ticked by default, Cancel and Create or Save. Server errors show under version (also those on
 * its parts), operatingSystem, file and isActive.
 */
export function DownloadForm({
  productId,
  product,
  download,
  save,
  onCreated,
  readOnly = false,
}: DownloadFormProps) {
  const { t } = useTranslation('admin');
  const base = useAdminBase();
  const { getAccessToken } = useAuth();
  const [outcome, setOutcome] = useState<SaveOutcome>({ kind: 'idle' });
  const isNew = !download;

  const labels: Record<string, string> = {
    product: t('download.product'),
    version: t('download.version'),
    majorVersion: t('download.version'),
    minorVersion: t('download.version'),
    patchVersion: t('download.version'),
    operatingSystem: t('download.operatingSystem'),
    fileUrl: t('download.fileUrl'),
    file: t('download.file'),
    fileId: t('download.file'),
    isActive: t('download.isActive'),
  };

  const versionRule: Validator<string> = (value) =>
    typeof value === 'string' && value.trim() !== '' && !versionPattern.test(value.trim())
      ? t('download.versionFormat')
      : undefined;
  const httpsRule: Validator<string> = (value) => {
    if (typeof value !== 'string' || value.trim() === '') return undefined;
    try {
      return new URL(value.trim()).protocol === 'https:'
        ? undefined
        : t('download.fileUrlHttps');
    } catch {
      return t('download.fileUrlHttps');
    }
  };

  return (
    <Form<DownloadFormValues>
      initialValues={toFormValues(download)}
      onSubmit={async (values) => {
        const errors = await submitSave(
          async () => {
            const result = await save(toInput(values));
            return result.isError && result.error
              ? { ...result, error: versionErrorsUnderVersion(result.error as FieldErrors) }
              : result;
          },
          {
            setOutcome,
            onSaved: (saved) => {
              if (isNew) onCreated?.(saved);
              else setOutcome({ kind: 'saved', message: t('download.saved') });
            },
          },
        );
        // The API names the installer by its id; the form's field for it is `file`.
        if (errors && 'fileId' in errors) return { ...errors, file: errors.fileId };
        return errors;
      }}
      render={({ handleSubmit, submitting }) => (
        <form onSubmit={handleSubmit} noValidate aria-label={t('download.details')}>
          <SaveBanners outcome={outcome} fieldLabels={labels} />
          <FormFieldset disabled={readOnly || submitting}>
            <TextControl name="product" label={labels.product} value={product.name} readOnly />
            <TextField
              name="version"
              label={labels.version}
              required
              validate={versionRule}
              help={t('download.versionHelp')}
              autoComplete="off"
            />
            <SelectField
              name="operatingSystem"
              label={labels.operatingSystem}
              required
              placeholder={t('select')}
              options={OPERATING_SYSTEMS.map((os) => ({
                value: os,
                label: t(`download.os.${os}`),
              }))}
            />
            <TextField
              name="fileUrl"
              label={labels.fileUrl}
              type="url"
              required
              validate={httpsRule}
              help={t('download.fileUrlHelp')}
              autoComplete="off"
            />
            <FileUpload
              name="file"
              label={labels.file}
              uploadUrl={INSTALLER_UPLOAD_URL}
              getAccessToken={getAccessToken}
              allowedExtensions={INSTALLER_EXTENSIONS}
              maxBytes={INSTALLER_MAX_BYTES}
              help={t('download.fileHelp', { extensions: INSTALLER_EXTENSIONS.join(', ') })}
            />
            <StoredInstaller />
            <CheckboxField name="isActive" label={labels.isActive} />
          </FormFieldset>
          {!readOnly && (
            <SaveActions
              cancelTo={paths.downloads.getHref(base, productId)}
              submitting={submitting}
              isNew={isNew}
            />
          )}
        </form>
      )}
    />
  );
}

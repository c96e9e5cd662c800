import { useState } from 'react';
import type { BulkUserErrors, CsvRowError, FieldErrors } from '@portal/contract';
import { useAuth } from '@portal/shared-auth';
import {
  Button,
  ButtonLink,
  ErrorBanner,
  PageSpinner,
  useNavigate,
  useTranslation,
} from '@portal/shared-ui';
import { SelectField as SelectControl } from '@portal/shared-ui/widgets';
import {
  FileUpload,
  Form,
  SelectField,
  type SubmissionErrors,
  type UploadedFileValue,
} from '@portal/shared-ui/forms';
import { useLookup } from '../../../api/get-lookup';
import { useAdminBase } from '../../../components/admin-base';
import { PageHeading } from '../../../components/admin-page';
import { flashState } from '../../../components/flash';
import { FormActions, FormFieldset } from '../../../components/form-layout';
import { useOrganisationCrumbs, useOrganisationId } from '../../../components/organisation-context';
import { USER_FILE_EXTENSIONS, USER_UPLOAD_URL } from '../../../config/constants';
import { paths } from '../../../config/paths';
import { VIEW_USERS } from '../../../config/permissions';
import { useBulkAddUsers } from '../api/bulk-add-users';
import { CsvRowErrors } from './csv-row-errors';
import { RoleSelectField } from './role-select-field';

interface BulkAddValues {
  file: UploadedFileValue | null;
  license: string;
  role: string;
}

type Outcome =
  | { kind: 'idle' }
  | { kind: 'invalid'; errors: FieldErrors; rows: CsvRowError[] }
  | { kind: 'failed' };

/** Splits the 400 of a bulk add: the bad rows for their list, the rest as field errors. */
function splitErrors(body: BulkUserErrors): { errors: FieldErrors; rows: CsvRowError[] } {
  const { rows = [], ...rest } = body;
  const errors: FieldErrors = {};
  for (const [key, value] of Object.entries(rest)) {
    if (Array.isArray(value))
      errors[key] = value.map((v) => (typeof v === 'string' ? v : v.message));
  }
  return { errors, rows };
}

/** /admin/organisation/{id}/user/new: users from a CSV file, all given one licence and one role. */
export function BulkAddUsersPage() {
  const { t } = useTranslation('admin');
  const base = useAdminBase();
  const navigate = useNavigate();
  const { getAccessToken } = useAuth();
  const organisationId = useOrganisationId();
  const licences = useLookup('organisation_licenses', organisationId);
  const roles = useLookup('roles');
  const bulkAdd = useBulkAddUsers();
  const [outcome, setOutcome] = useState<Outcome>({ kind: 'idle' });
  useOrganisationCrumbs([
    {
      label: t('users.title'),
      to: paths.users.getHref(base, organisationId),
      anyOf: VIEW_USERS,
    },
    { label: t('users.add') },
  ]);

  if (licences.error || roles.error) return <ErrorBanner errors={[t('lookupFailed')]} />;
  if (!licences.data || !roles.data) return <PageSpinner />;
  const licenceChoices = licences.data;
  const roleChoices = roles.data;

  const labels = {
    file: t('bulkAdd.file'),
    license: t('bulkAdd.licence'),
    role: t('bulkAdd.role'),
  };

  const submit = async (values: BulkAddValues): Promise<SubmissionErrors | undefined> => {
    setOutcome({ kind: 'idle' });
    if (!values.file) return { file: t('bulkAdd.fileMissing') };
    try {
      const result = await bulkAdd({
        file: values.file.id,
        license: Number(values.license),
        role: Number(values.role),
      });
      if (result.isSuccess) {
        void navigate(paths.users.getHref(base, organisationId), {
          state: flashState(t('bulkAdd.added', { count: result.data.count })),
        });
        return undefined;
      }
      if (result.isError && result.error) {
        const { errors, rows } = splitErrors(result.error);
        setOutcome({ kind: 'invalid', errors, rows });
        return errors;
      }
    } catch (error) {
      console.error('Adding users failed', error);
    }
    setOutcome({ kind: 'failed' });
    return undefined;
  };

  return (
    <>
      <PageHeading level={2} title={t('users.add')} />
      <Form<BulkAddValues>
        initialValues={{ file: null, license: '', role: '' }}
        onSubmit={submit}
        render={({ handleSubmit, submitting }) => (
          <form onSubmit={handleSubmit} noValidate aria-label={t('users.add')}>
            {outcome.kind === 'invalid' && (
              <ErrorBanner errors={outcome.errors} fieldLabels={labels} />
            )}
            {outcome.kind === 'failed' && <ErrorBanner errors={[t('saveFailed')]} />}
            <FormFieldset disabled={submitting}>
              <FileUpload
                name="file"
                label={labels.file}
                uploadUrl={USER_UPLOAD_URL}
                getAccessToken={getAccessToken}
                allowedExtensions={USER_FILE_EXTENSIONS}
                required
                help={t('bulkAdd.fileHelp')}
              />
              {licenceChoices.length > 0 ? (
                <SelectField
                  name="license"
                  label={labels.license}
                  required
                  placeholder={t('select')}
                  options={licenceChoices.map((l) => ({
                    value: String(l.id),
                    label: l.description ? `${l.name} (${l.description})` : l.name,
                  }))}
                />
              ) : (
                // Nothing to choose: say why instead of offering an empty select.
                <SelectControl
                  name="license"
                  label={labels.license}
                  required
                  disabled
                  options={[]}
                  placeholder={t('bulkAdd.noLicences')}
                  help={t('bulkAdd.noLicencesHelp')}
                />
              )}
              <RoleSelectField name="role" label={labels.role} roles={roleChoices} />
            </FormFieldset>
            <FormActions>
              <ButtonLink variant="secondary" to={paths.users.getHref(base, organisationId)}>
                {t('common.cancel')}
              </ButtonLink>
              <Button type="submit" disabled={submitting || licenceChoices.length === 0}>
                {t('bulkAdd.submit')}
              </Button>
            </FormActions>
            {outcome.kind === 'invalid' && <CsvRowErrors rows={outcome.rows} />}
          </form>
        )}
      />
    </>
  );
}

import { NotFoundError, usePermissions } from '@portal/shared-auth';
import { NotFoundView, PageSpinner, SomethingWentWrongView, useParams, useTranslation } from '@portal/shared-ui';
import { useAdminBase } from '../../../components/admin-base';
import { PageHeading } from '../../../components/admin-page';
import { useOrganisationCrumbs, useOrganisationId } from '../../../components/organisation-context';
import { paths } from '../../../config/paths';
import { UPDATE_LICENCE, VIEW_LICENCES } from '../../../config/permissions';
import { useLicense } from '../api/get-license';
import { useUpdateLicense } from '../api/update-license';
import { LicenceForm } from './licence-form';
import { LicensedUsers } from './licensed-users';

/** /admin/organisation/{id}/license/{licenseId}: the licence's details and the users holding its seats. */
export function EditLicencePage() {
  const { licenseId: raw = '' } = useParams<{ licenseId: string }>();
  const licenseId = /^\d{1,10}$/.test(raw) ? Number(raw) : null;
  if (licenseId === null) return <NotFoundView />;
  return <EditLicence licenseId={licenseId} />;
}

function EditLicence({ licenseId }: { licenseId: number }) {
  const { t } = useTranslation('admin');
  const base = useAdminBase();
  const can = usePermissions();
  const organisationId = useOrganisationId();
  const { data, error } = useLicense(organisationId, licenseId);
  const update = useUpdateLicense(organisationId, licenseId);
  useOrganisationCrumbs([
    { label: t('licences.title'), to: paths.licences.getHref(base, organisationId), anyOf: VIEW_LICENCES },
    { label: data?.licenseName ?? t('licence.details') },
  ]);

  if (error instanceof NotFoundError) return <NotFoundView />;
  if (error) return <SomethingWentWrongView />;
  if (!data) return <PageSpinner />;
  return (
    <>
      <PageHeading level={2} title={data.licenseName} />
      <LicenceForm
        // A saved licence comes back as new data; the form starts again from it.
        key={`${data.id}-${data.duration}`}
        organisationId={organisationId}
        licence={data}
        save={update}
        readOnly={!can(UPDATE_LICENCE)}
      />
      <LicensedUsers organisationId={organisationId} licence={data} />
    </>
  );
}

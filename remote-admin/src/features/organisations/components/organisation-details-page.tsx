import { usePermissions } from '@portal/shared-auth';
import { PageSpinner } from '@portal/shared-ui';
import { useOrganisationId } from '../../../components/organisation-context';
import { UPDATE_ORGANISATION } from '../../../config/permissions';
import { useOrganisation } from '../api/get-organisation';
import { useUpdateOrganisation } from '../api/update-organisation';
import { OrganisationForm } from './organisation-form';

/** /admin/organisation/{id}: the details tab, editable with the update permission. */
export function OrganisationDetailsPage() {
  const organisationId = useOrganisationId();
  const can = usePermissions();
  const { data } = useOrganisation(organisationId);
  const update = useUpdateOrganisation(organisationId);
  // The layout shows a failed load; here there is only something to show once it is there.
  if (!data) return <PageSpinner />;
  return <OrganisationForm key={data.id} organisation={data} save={update} readOnly={!can(UPDATE_ORGANISATION)} />;
}

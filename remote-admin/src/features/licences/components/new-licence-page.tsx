import { useNavigate, useTranslation } from '@portal/shared-ui';
import { useAdminBase } from '../../../components/admin-base';
import { PageHeading } from '../../../components/admin-page';
import { flashState } from '../../../components/flash';
import { useOrganisationCrumbs, useOrganisationId } from '../../../components/organisation-context';
import { paths } from '../../../config/paths';
import { VIEW_LICENCES } from '../../../config/permissions';
import { useCreateLicense } from '../api/create-license';
import { LicenceForm } from './licence-form';

/** /admin/organisation/{id}/license/new: a create goes back to the list with "License {name} added successfully". */
export function NewLicencePage() {
  const { t } = useTranslation('admin');
  const base = useAdminBase();
  const navigate = useNavigate();
  const organisationId = useOrganisationId();
  const create = useCreateLicense(organisationId);
  useOrganisationCrumbs([
    { label: t('licences.title'), to: paths.licences.getHref(base, organisationId), anyOf: VIEW_LICENCES },
    { label: t('licence.new') },
  ]);
  return (
    <>
      <PageHeading level={2} title={t('licence.new')} />
      <LicenceForm
        organisationId={organisationId}
        save={create}
        onCreated={(licence) =>
          void navigate(paths.licences.getHref(base, organisationId), {
            state: flashState(t('licence.added', { name: licence.licenseName })),
          })
        }
      />
    </>
  );
}

import { useTranslation, useNavigate } from '@portal/shared-ui';
import { useAdminBase } from '../../../components/admin-base';
import { AdminPage } from '../../../components/admin-page';
import { flashState } from '../../../components/flash';
import { paths } from '../../../config/paths';
import { VIEW_ORGANISATIONS } from '../../../config/permissions';
import { useCreateOrganisation } from '../api/create-organisation';
import { OrganisationForm } from './organisation-form';

/** /admin/organisation/new: a create goes back to the list with "Organisation {name} added successfully". */
export function NewOrganisationPage() {
  const { t } = useTranslation('admin');
  const base = useAdminBase();
  const navigate = useNavigate();
  const create = useCreateOrganisation();
  return (
    <AdminPage
      title={t('organisation.new')}
      sectionTabs={false}
      crumbs={[{ label: t('organisations'), to: paths.organisations.getHref(base), anyOf: VIEW_ORGANISATIONS }]}
    >
      <OrganisationForm
        save={create}
        onCreated={(organisation) =>
          void navigate(paths.organisations.getHref(base), {
            state: flashState(t('organisation.added', { name: organisation.name })),
          })
        }
      />
    </AdminPage>
  );
}

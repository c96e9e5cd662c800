import { useNavigate, useTranslation } from '@portal/shared-ui';
import { useAdminBase } from '../../../components/admin-base';
import { PageHeading } from '../../../components/admin-page';
import { flashState } from '../../../components/flash';
import { useOrganisationCrumbs, useOrganisationId } from '../../../components/organisation-context';
import { paths } from '../../../config/paths';
import { MANAGE_LEARNING_PLATFORMS } from '../../../config/permissions';
import { useCreatePlatform } from '../api/learning-platforms';
import { PlatformForm } from './platform-form';

/** /admin/organisation/{id}/lti/new: a create goes back to the list with its success message. */
export function NewPlatformPage() {
  const { t } = useTranslation('admin');
  const base = useAdminBase();
  const navigate = useNavigate();
  const organisationId = useOrganisationId();
  const create = useCreatePlatform();
  useOrganisationCrumbs([
    { label: t('lti.title'), to: paths.learningPlatforms.getHref(base, organisationId), anyOf: MANAGE_LEARNING_PLATFORMS },
    { label: t('lti.new') },
  ]);
  return (
    <>
      <PageHeading level={2} title={t('lti.new')} />
      <PlatformForm
        organisationId={organisationId}
        save={create}
        onCreated={(platform) =>
          void navigate(paths.learningPlatforms.getHref(base, organisationId), {
            state: flashState(t('lti.added', { issuer: platform.issuer })),
          })
        }
      />
    </>
  );
}

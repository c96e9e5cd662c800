import { useState } from 'react';
import type { FieldErrors, LtiPlatform } from '@portal/contract';
import { NotFoundError } from '@portal/shared-auth';
import {
  Button,
  ErrorBanner,
  NotFoundView,
  PageSpinner,
  SomethingWentWrongView,
  useNavigate,
  useParams,
  useTranslation,
} from '@portal/shared-ui';
import { ConfirmDialog } from '@portal/shared-ui/widgets';
import { useAdminBase } from '../../../components/admin-base';
import { PageHeading } from '../../../components/admin-page';
import { flashState } from '../../../components/flash';
import { useOrganisationCrumbs, useOrganisationId } from '../../../components/organisation-context';
import { paths } from '../../../config/paths';
import { MANAGE_LEARNING_PLATFORMS } from '../../../config/permissions';
import { useDeletePlatform, usePlatform, useUpdatePlatform } from '../api/learning-platforms';
import { PlatformForm } from './platform-form';

/** /admin/organisation/{id}/lti/{platformId}: change or delete a registration. */
export function EditPlatformPage() {
  const { platformId: raw = '' } = useParams<{ platformId: string }>();
  const platformId = /^\d{1,10}$/.test(raw) ? Number(raw) : null;
  if (platformId === null) return <NotFoundView />;
  return <EditPlatform platformId={platformId} />;
}

function EditPlatform({ platformId }: { platformId: number }) {
  const { t } = useTranslation('admin');
  const base = useAdminBase();
  const organisationId = useOrganisationId();
  const { data, error } = usePlatform(platformId);
  const update = useUpdatePlatform(platformId);
  useOrganisationCrumbs([
    {
      label: t('lti.title'),
      to: paths.learningPlatforms.getHref(base, organisationId),
      anyOf: MANAGE_LEARNING_PLATFORMS,
    },
    { label: data?.issuer ?? t('lti.details') },
  ]);

  if (error instanceof NotFoundError) return <NotFoundView />;
  if (error) return <SomethingWentWrongView />;
  if (!data) return <PageSpinner />;
  // Another organisation's registration is not this page's (the URL was edited by hand).
  if (data.organisationId !== organisationId) return <NotFoundView />;
  return (
    <>
      <PageHeading
        level={2}
        title={data.issuer}
        actions={<DeletePlatform platform={data} organisationId={organisationId} />}
      />
      <PlatformForm
        key={`${data.id}-${data.clientId}-${data.deploymentIds.join(',')}`}
        organisationId={organisationId}
        platform={data}
        save={update}
      />
    </>
  );
}

/** Delete after the confirm dialog; back to the list with a message, or the refusal shown. */
function DeletePlatform({
  platform,
  organisationId,
}: {
  platform: LtiPlatform;
  organisationId: number;
}) {
  const { t } = useTranslation('admin');
  const base = useAdminBase();
  const navigate = useNavigate();
  const remove = useDeletePlatform();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<FieldErrors | string[] | null>(null);

  const confirm = async () => {
    setBusy(true);
    setErrors(null);
    try {
      const result = await remove(platform.id);
      if (result.isSuccess) {
        void navigate(paths.learningPlatforms.getHref(base, organisationId), {
          state: flashState(t('lti.deleted', { issuer: platform.issuer })),
        });
        return;
      }
      setErrors(result.isError && result.error ? result.error : [t('lti.deleteFailed')]);
    } catch (error) {
      console.error('Deleting the learning platform failed', error);
      setErrors([t('lti.deleteFailed')]);
    } finally {
      setBusy(false);
      setOpen(false);
    }
  };

  return (
    <>
      <Button variant="danger" onClick={() => setOpen(true)}>
        {t('lti.delete')}
      </Button>
      {errors && <ErrorBanner errors={errors} />}
      <ConfirmDialog
        open={open}
        title={t('lti.deleteTitle')}
        message={t('lti.deleteMessage', {
          issuer: platform.issuer,
          clientId: platform.clientId,
        })}
        confirmLabel={t('lti.delete')}
        onConfirm={() => void confirm()}
        onCancel={() => setOpen(false)}
        busy={busy}
      />
    </>
  );
}

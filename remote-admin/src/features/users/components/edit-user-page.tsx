import { useState } from 'react';
import type { AdminUser, FieldErrors } from '@portal/contract';
import { NotFoundError, usePermissions } from '@portal/shared-auth';
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
import { useLookup } from '../../../api/get-lookup';
import { useAdminBase } from '../../../components/admin-base';
import { PageHeading } from '../../../components/admin-page';
import { flashState } from '../../../components/flash';
import { useOrganisationCrumbs, useOrganisationId } from '../../../components/organisation-context';
import { paths } from '../../../config/paths';
import { useUserName } from '../../../lib/user-name';
import { REMOVE_USER, UPDATE_USER, VIEW_USERS } from '../../../config/permissions';
import { useDeleteUser } from '../api/delete-user';
import { useUser } from '../api/get-user';
import { AccountState } from './account-state';
import { PendingEmailChange } from './pending-email-change';
import { UserForm } from './user-form';
import { UserLicences } from './user-licences';

/** /admin/organisation/{id}/user/{userId}: edit a user, free their seats, delete them. */
export function EditUserPage() {
  const { userId = '' } = useParams<{ userId: string }>();
  const { t } = useTranslation('admin');
  const base = useAdminBase();
  const can = usePermissions();
  const organisationId = useOrganisationId();
  const { data: user, error } = useUser(userId);
  const roles = useLookup('roles');
  const userName = useUserName();
  useOrganisationCrumbs([
    {
      label: t('users.title'),
      to: paths.users.getHref(base, organisationId),
      anyOf: VIEW_USERS,
    },
    { label: user ? userName(user) : t('user.details') },
  ]);

  // A user of another organisation is not found here either.
  if (error instanceof NotFoundError || (user && user.organisation !== organisationId))
    return <NotFoundView />;
  if (error) return <SomethingWentWrongView />;
  if (roles.error) return <ErrorBanner errors={[t('lookupFailed')]} />;
  if (!user || !roles.data) return <PageSpinner />;

  return (
    <>
      <PageHeading
        level={2}
        title={userName(user)}
        actions={can(REMOVE_USER) && <DeleteUser user={user} organisationId={organisationId} />}
      />
      <AccountState user={user} canResend={can(UPDATE_USER)} />
      <PendingEmailChange user={user} canCancel={can(UPDATE_USER)} />
      <UserForm
        key={user.id}
        organisationId={organisationId}
        user={user}
        roles={roles.data}
        readOnly={!can(UPDATE_USER)}
      />
      <UserLicences user={user} />
    </>
  );
}

/** docs/requirements.md#saving-and-deleting: delete after the confirm dialog; the dialog closes when the call settles, refusals listed. */
function DeleteUser({ user, organisationId }: { user: AdminUser; organisationId: number }) {
  const { t } = useTranslation('admin');
  const base = useAdminBase();
  const navigate = useNavigate();
  const remove = useDeleteUser();
  const name = useUserName()(user);
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<FieldErrors | string[] | null>(null);

  const confirm = async () => {
    setBusy(true);
    setErrors(null);
    try {
      const result = await remove(user.id);
      if (result.isSuccess) {
        void navigate(paths.users.getHref(base, organisationId), {
          state: flashState(t('deleteUser.done', { name })),
        });
        return;
      }
      setErrors(result.isError && result.error ? result.error : [t('deleteUser.failed')]);
    } catch (error) {
      console.error('Deleting the user failed', error);
      setErrors([t('deleteUser.failed')]);
    } finally {
      setBusy(false);
      setOpen(false);
    }
  };

  return (
    <>
      <Button variant="danger" onClick={() => setOpen(true)}>
        {t('deleteUser.button')}
      </Button>
      {errors && (
        <div style={{ marginTop: '0.5rem' }}>
          <ErrorBanner heading={t('deleteUser.errorHeading')} errors={errors} />
        </div>
      )}
      <ConfirmDialog
        open={open}
        title={t('deleteUser.title')}
        message={
          user.email === null
            ? t('deleteUser.messageNoEmail', { name })
            : t('deleteUser.message', { name, email: user.email })
        }
        confirmLabel={t('deleteUser.button')}
        onConfirm={() => void confirm()}
        onCancel={() => setOpen(false)}
        busy={busy}
      />
    </>
  );
}

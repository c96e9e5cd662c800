import type { AdminUser } from '@portal/contract';
import { usePermissions } from '@portal/shared-auth';
import { useTranslation } from '@portal/shared-ui';
import { usePagedListState } from '@portal/shared-ui/widgets';
import { useRemoveUserLicense } from '../../../api/remove-user-license';
import { useLicenceColumns } from '../../../components/licence-columns';
import { RemovableRowsTable } from '../../../components/removable-rows-table';
import { UNASSIGN_LICENCE } from '../../../config/permissions';
import { useUserLicenses } from '../api/get-user-licenses';

/** The licences a user holds a seat of; with the permission, a seat can be freed after a confirmation. */
export function UserLicences({ user }: { user: AdminUser }) {
  const { t } = useTranslation('admin');
  const can = usePermissions();
  const list = usePagedListState({ ordering: 'licenseName' });
  const result = useUserLicenses(user.id, list.params);
  const remove = useRemoveUserLicense();

  const columns = useLicenceColumns();

  return (
    <RemovableRowsTable
      title={t('user.licences')}
      list={list}
      result={result}
      columns={columns}
      canRemove={can(UNASSIGN_LICENCE)}
      rowName={(licence) => licence.licenseName}
      confirmMessage={(licence) =>
        t('removeLicense.message', { name: user.fullName, licence: licence.licenseName })
      }
      doneMessage={() => t('removeLicense.done', { name: user.fullName })}
      remove={(licence) => remove(user.id, licence.id)}
    />
  );
}

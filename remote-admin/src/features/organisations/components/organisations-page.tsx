import { useTranslation } from '@portal/shared-ui';
import { AdminPage } from '../../admin-shell/components/admin-page';

/** Landing screen of /admin/organisation; the organisation table arrives with the admin issue. */
export function OrganisationsPage() {
  const { t } = useTranslation();
  return (
    <AdminPage title={t('admin.organisations')}>
      <p>{t('admin.organisationsIntro')}</p>
    </AdminPage>
  );
}

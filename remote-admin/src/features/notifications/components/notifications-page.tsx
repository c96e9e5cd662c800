import { useTranslation } from '@portal/shared-ui';
import { AdminPage } from '../../../components/admin-page';
import { NotificationsTable } from './notifications-table';

/** /admin/notification: every notification the user may see, across organisations (spec §2 tabs). */
export function NotificationsPage() {
  const { t } = useTranslation('admin');
  return (
    <AdminPage title={t('admin.notifications')}>
      <p>{t('admin.notification.intro')}</p>
      <NotificationsTable caption={t('admin.notifications')} />
    </AdminPage>
  );
}

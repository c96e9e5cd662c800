import { useTranslation } from '@portal/shared-ui';
import { AdminPage } from '../../../components/admin-page';
import { NotificationsTable } from './notifications-table';

/** /admin/notification: every notification the user may see, across organisations (docs/requirements.md#administration). */
export function NotificationsPage() {
  const { t } = useTranslation('admin');
  return (
    <AdminPage title={t('notifications')}>
      <p>{t('notification.intro')}</p>
      <NotificationsTable caption={t('notifications')} />
    </AdminPage>
  );
}

import { useTranslation } from '@portal/shared-ui';
import { PageHeading } from '../../../components/admin-page';
import { useOrganisationCrumbs, useOrganisationId } from '../../../components/organisation-context';
import { NotificationsTable } from './notifications-table';

/** /admin/organisation/{id}/notification: the organisation's Notifications tab. */
export function OrganisationNotificationsPage() {
  const { t } = useTranslation('admin');
  const organisationId = useOrganisationId();
  useOrganisationCrumbs([{ label: t('notifications') }]);
  return (
    <>
      <PageHeading level={2} title={t('notifications')} />
      <p>{t('notification.intro')}</p>
      <NotificationsTable organisation={organisationId} caption={t('notifications')} />
    </>
  );
}

import { useTranslation } from '@portal/shared-ui';
import { AdminPage } from './admin-page';

/** Products and notifications tabs until their screens arrive. */
export function SectionPlaceholderPage({ titleKey, introKey }: { titleKey: string; introKey: string }) {
  const { t } = useTranslation('admin');
  return (
    <AdminPage title={t(titleKey)}>
      <p>{t(introKey)}</p>
    </AdminPage>
  );
}

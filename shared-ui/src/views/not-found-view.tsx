import { useTranslation } from '../i18n/react-i18next';
import { Button } from '../components/button';
import { Actions, HomeLink, ViewWrapper } from './message-view';

export interface NotFoundViewProps {
  /** Shows a "Refresh" button (data loading answered 401/403/404). */
  onRefresh?: () => void;
}

export function NotFoundView({ onRefresh }: NotFoundViewProps) {
  const { t } = useTranslation();
  return (
    <ViewWrapper>
      <h1>{t('pageNotFound')}</h1>
      <p>{t('sorryWeCouldntFindThePageYoureLookingFor')}</p>
      <Actions>
        <HomeLink to="/">{t('common.goHome')}</HomeLink>
        {onRefresh && (
          <Button variant="secondary" onClick={onRefresh}>
            {t('common.refresh')}
          </Button>
        )}
      </Actions>
    </ViewWrapper>
  );
}

import { useTranslation } from '../i18n/react-i18next';
import { Button } from '../components/button';
import { Actions, HomeLink, ViewWrapper } from './message-view';

/** What an error boundary shows. */
export function ErrorFallbackView() {
  const { t } = useTranslation();
  return (
    <ViewWrapper role="alert">
      <h1>{t('errorFallback.heading')}</h1>
      <p>{t('errorFallback.text')}</p>
    </ViewWrapper>
  );
}

export interface SomethingWentWrongViewProps {
  /** Adds a link home, e.g. '/' or '/lti/launch'. */
  homeTo?: string;
}

/** A failed data load or route error other than 401/403/404. */
export function SomethingWentWrongView({ homeTo }: SomethingWentWrongViewProps) {
  const { t } = useTranslation();
  return (
    <ViewWrapper>
      <h1>{t('errorFallback.heading')}</h1>
      <p>{t('common.somethingWentWrong')}</p>
      {homeTo !== undefined && (
        <Actions>
          <HomeLink to={homeTo}>{t('common.goHome')}</HomeLink>
        </Actions>
      )}
    </ViewWrapper>
  );
}

export interface UnavailableViewProps {
  /** Name of the area shown, e.g. "Reports". */
  area?: string;
  onRetry: () => void;
}

/** A part of the portal (a remote) that could not be loaded; the rest keeps working. */
export function UnavailableView({ area, onRetry }: UnavailableViewProps) {
  const { t } = useTranslation();
  return (
    <ViewWrapper role="alert">
      <h1>{t('unavailable.heading')}</h1>
      <p>{area ? t('unavailable.textWithArea', { area }) : t('unavailable.text')}</p>
      <Actions>
        <Button onClick={onRetry}>{t('unavailable.retry')}</Button>
      </Actions>
    </ViewWrapper>
  );
}

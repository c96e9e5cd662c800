// Theme and product context
export { theme, type Theme } from './theme/theme';
export { GlobalStyle } from './theme/global-style';
export { UiProvider, type UiProviderProps } from './theme/ui-provider';
export { useProduct, DEFAULT_LAUNCH_SETTINGS, type ProductInfo } from './theme/product-context';

// Router and react-i18next facades: apps, remotes and packages use these libraries only through
// here (docs/architecture.md, "Router facade").
export * from './router';
export { useTranslation } from './i18n/react-i18next';

// Hooks
export { usePageTitle } from './hooks/use-page-title';

// Stored URLs (download links, signed file URLs): https or the portal's own storage route only.
export { safeHref } from './lib/safe-url';
export { formatDate, dateFormatFor, useFormatDate, type DateStyle } from './lib/localised-dates';

// i18n
export {
  initI18n,
  buildI18nOptions,
  DEFAULT_LOAD_PATH,
  FALLBACK_LANGUAGE,
  I18N_LOADER_LIMITS,
  type InitI18nOptions,
} from './i18n/init-i18n';
export { createRemoteStrings, type RemoteStrings } from './i18n/remote-strings';

// Components (list and detail page widgets: '@portal/shared-ui/widgets')
export { VisuallyHidden } from './components/visually-hidden';
export { NewTabLink, type NewTabLinkProps } from './components/new-tab-link';
export { Spinner, PageSpinner, type SpinnerProps } from './components/spinner';
export {
  Button,
  ButtonLink,
  ButtonAnchor,
  type ButtonProps,
  type ButtonLinkProps,
  type ButtonVariant,
} from './components/button';
export {
  SuccessBanner,
  ErrorBanner,
  type SuccessBannerProps,
  type ErrorBannerProps,
  type BannerErrors,
} from './components/banners';
export { useTranslateErrorMessage } from './components/error-message';
export {
  TableSkeleton,
  SkeletonBar,
  SkeletonRows,
  type TableSkeletonProps,
} from './components/skeleton';
export { Modal, type ModalProps } from './components/modal';
export { Breadcrumbs, type BreadcrumbItem, type BreadcrumbsProps } from './components/breadcrumbs';

// Views
export { NotFoundView, type NotFoundViewProps } from './views/not-found-view';
/** The centred layout of message pages (not found, errors), for remotes' own message screens. */
export { ViewWrapper as MessageScreen } from './views/message-view';
export {
  ErrorFallbackView,
  SomethingWentWrongView,
  UnavailableView,
  type SomethingWentWrongViewProps,
  type UnavailableViewProps,
} from './views/error-views';

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
export { useDebouncedValue } from './hooks/use-debounced-value';
export {
  usePagedListState,
  useResetOnInvalidPage,
  isInvalidPage,
  INVALID_PAGE,
  type PagedListParams,
  type PagedListState,
} from './hooks/use-paged-list-state';

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
export { registerTranslations } from './i18n/register-translations';
export { registerNamespace } from './i18n/remote-namespaces';

// Components
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
export { StatusPill } from './components/status-pill';
export { Pagination, type PaginationProps } from './components/pagination';
export { getPageItems, type PageItem } from './components/page-items';
export { TableSkeleton, SkeletonBar, type TableSkeletonProps } from './components/skeleton';
export { Modal, type ModalProps } from './components/modal';
export { ConfirmDialog, type ConfirmDialogProps } from './components/confirm-dialog';
export { Breadcrumbs, type BreadcrumbItem, type BreadcrumbsProps } from './components/breadcrumbs';
export { Tabs, TabLinks, type TabItem, type TabsProps, type TabLinkItem, type TabLinksProps } from './components/tabs';
export { DataTable, type DataTableColumn, type DataTableProps } from './components/data-table';
export { nextOrdering, parseOrdering, type SortDirection } from './components/ordering';
export { SearchInput, type SearchInputProps } from './components/search-input';
export {
  TextField,
  SelectField,
  CheckboxField,
  type TextFieldProps,
  type SelectFieldProps,
  type SelectOption,
  type CheckboxFieldProps,
} from './components/form-fields';
export { FieldShell, type FieldError, type FieldIds, type FieldTextProps } from './components/field-shell';

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

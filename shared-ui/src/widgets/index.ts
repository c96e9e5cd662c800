// `@portal/shared-ui/widgets`: the parts of list and detail pages — tables, paging, tabs, search,
// confirmation, plain form controls, status pills — for the areas that have such pages.
//
// Like `@portal/shared-ui/forms`, this entry is not a federated shared module: each app that uses
// it bundles the widgets it imports (tree-shaken), so the first screen of the portal, which has
// none of them, never downloads them (≈ 4 kB gzip of every first visit before; `pnpm
// bench:bundle`). A widget keeps no state of its own across apps, so a copy per app is safe. The
// widgets reach shared-ui's singleton (router, i18n, theme, Button, Modal…) through the package
// name '@portal/shared-ui', never by a relative path, or an app would bundle a second router or
// react-i18next (eslint.config.js enforces it; docs/architecture.md, "Forms and widgets").
export {
  usePagedListState,
  useResetOnInvalidPage,
  isInvalidPage,
  INVALID_PAGE,
  type PagedListParams,
  type PagedListState,
} from './use-paged-list-state';
export { useDebouncedValue } from './use-debounced-value';
export { StatusPill } from './status-pill';
export { Pagination, type PaginationProps } from './pagination';
export { getPageItems, type PageItem } from './page-items';
export { ConfirmDialog, type ConfirmDialogProps } from './confirm-dialog';
export {
  Tabs,
  TabLinks,
  type TabItem,
  type TabsProps,
  type TabLinkItem,
  type TabLinksProps,
} from './tabs';
export { DataTable, type DataTableColumn, type DataTableProps } from './data-table';
export { nextOrdering, parseOrdering, type SortDirection } from './ordering';
export { SearchInput, type SearchInputProps } from './search-input';
export {
  TextField,
  SelectField,
  CheckboxField,
  type TextFieldProps,
  type SelectFieldProps,
  type SelectOption,
  type CheckboxFieldProps,
} from './form-fields';
export { FieldShell, type FieldError, type FieldIds, type FieldTextProps } from './field-shell';

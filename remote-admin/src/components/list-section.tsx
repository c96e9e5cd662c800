import type { SWRResponse } from 'swr';
import type { PagedResult } from '@portal/contract';
import { ButtonLink, Link, useTranslation, VisuallyHidden } from '@portal/shared-ui';
import { type DataTableColumn, type PagedListState } from '@portal/shared-ui/widgets';
import { PageHeading } from './admin-page';
import { FlashBanner } from './flash';
import { PagedTable } from './paged-table';

/** A list's last column: "Edit" linking to the row's page, naming the row for screen readers. */
export function useEditColumn<T>(
  to: (row: T) => string,
  name: (row: T) => string,
  /** Whether the user may change the rows: else the link says View (the form opens read-only). */
  editable = true,
): DataTableColumn<T> {
  const { t } = useTranslation('admin');
  return {
    key: 'edit',
    header: t('actions'),
    render: (row) => (
      <Link to={to(row)}>
        {editable ? t('common.edit') : t('common.view')}
        <VisuallyHidden> {name(row)}</VisuallyHidden>
      </Link>
    ),
  };
}

export interface ListSectionProps<T> {
  /** The heading and the table's accessible name. */
  title: string;
  /** The "new" button beside the heading; none when null (no permission). */
  create: { label: string; to: string } | null;
  list: PagedListState;
  result: SWRResponse<PagedResult<T>, Error>;
  columns: readonly DataTableColumn<T>[];
  searchLabel: string;
}

/**
 * A list tab of an organisation (licences, users): heading with its "new" button, the success
 * message a create left behind, and the searchable paged table.
 */
export function ListSection<T>({
  title,
  create,
  list,
  result,
  columns,
  searchLabel,
}: ListSectionProps<T>) {
  return (
    <>
      <PageHeading
        level={2}
        title={title}
        actions={create && <ButtonLink to={create.to}>{create.label}</ButtonLink>}
      />
      <FlashBanner />
      <PagedTable
        list={list}
        result={result}
        columns={columns}
        caption={title}
        searchLabel={searchLabel}
      />
    </>
  );
}

import { useState } from 'react';
import type { SWRResponse } from 'swr';
import type { PagedResult } from '@portal/contract';
import type { ApiResult } from '@portal/shared-auth';
import { Button, ErrorBanner, SuccessBanner, useTranslation } from '@portal/shared-ui';
import {
  ConfirmDialog,
  type DataTableColumn,
  type PagedListState,
} from '@portal/shared-ui/widgets';
import { PageHeading } from './admin-page';
import { PagedTable } from './paged-table';

export interface RemovableRowsTableProps<T> {
  /** The section's heading and the table's accessible name. */
  title: string;
  list: PagedListState;
  result: SWRResponse<PagedResult<T>, Error>;
  columns: readonly DataTableColumn<T>[];
  searchLabel?: string;
  /** Rows get a Remove button (the caller's permission). */
  canRemove: boolean;
  /** Names the row in its button's accessible label ("Remove {name}"). */
  rowName: (row: T) => string;
  /** The confirmation's question for the row. */
  confirmMessage: (row: T) => string;
  /** The success message once the row was removed. */
  doneMessage: (row: T) => string;
  remove: (row: T) => Promise<ApiResult<unknown>>;
}

type Removal = { kind: 'idle' } | { kind: 'removed'; message: string } | { kind: 'failed' };

/**
 * A paged table whose rows can be removed one at a time behind a confirmation (docs/requirements.md#saving-and-deleting): a
 * licence's seat holders and a user's licences, both freeing a seat. Success and failure show as
 * banners above the table (§8: 'removeLicense.errorMessage').
 */
export function RemovableRowsTable<T>({
  title,
  list,
  result,
  columns,
  searchLabel,
  canRemove,
  rowName,
  confirmMessage,
  doneMessage,
  remove,
}: RemovableRowsTableProps<T>) {
  const { t } = useTranslation('admin');
  const [chosen, setChosen] = useState<T | null>(null);
  const [busy, setBusy] = useState(false);
  const [removal, setRemoval] = useState<Removal>({ kind: 'idle' });

  const confirm = async () => {
    if (chosen === null) return;
    setBusy(true);
    try {
      const outcome = await remove(chosen);
      setRemoval(
        outcome.isSuccess ? { kind: 'removed', message: doneMessage(chosen) } : { kind: 'failed' },
      );
    } catch (error) {
      console.error('Removing the row failed', error);
      setRemoval({ kind: 'failed' });
    } finally {
      setBusy(false);
      setChosen(null);
    }
  };

  const removeColumn: DataTableColumn<T> = {
    key: 'remove',
    header: t('actions'),
    render: (row) => (
      <Button
        variant="secondary"
        onClick={() => {
          setRemoval({ kind: 'idle' });
          setChosen(row);
        }}
        aria-label={t('removeLicense.buttonFor', { name: rowName(row) })}
      >
        {t('removeLicense.button')}
      </Button>
    ),
  };

  return (
    <section>
      <PageHeading level={2} title={title} />
      {removal.kind === 'removed' && (
        <SuccessBanner heading={t('successHeading')} messages={[removal.message]} />
      )}
      {removal.kind === 'failed' && (
        <ErrorBanner errors={[t('removeLicense.errorMessage')]} />
      )}
      <PagedTable
        list={list}
        result={result}
        columns={canRemove ? [...columns, removeColumn] : columns}
        caption={title}
        searchLabel={searchLabel}
      />
      <ConfirmDialog
        open={chosen !== null}
        title={t('removeLicense.title')}
        message={chosen === null ? '' : confirmMessage(chosen)}
        confirmLabel={t('removeLicense.button')}
        onConfirm={() => void confirm()}
        onCancel={() => setChosen(null)}
        busy={busy}
      />
    </section>
  );
}

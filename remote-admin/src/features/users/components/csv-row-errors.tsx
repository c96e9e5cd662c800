import type { CsvRowError } from '@portal/contract';
import { useTranslateErrorMessage, useTranslation } from '@portal/shared-ui';

/**
 * The rows of a refused users file, as a list a person can work through in a spreadsheet:
 * "Row 3 (email): Enter a valid email address." The row numbers are the spreadsheet's (header = 1).
 */
export function CsvRowErrors({ rows }: { rows: readonly CsvRowError[] }) {
  const { t } = useTranslation('admin');
  const translate = useTranslateErrorMessage();
  if (rows.length === 0) return null;
  const sorted = [...rows].sort((a, b) => a.row - b.row);
  return (
    <section role="alert" aria-labelledby="csv-row-errors-heading">
      <h2 id="csv-row-errors-heading">{t('bulkAdd.rowErrorsHeading', { count: rows.length })}</h2>
      <ul>
        {sorted.map((error, i) => (
          <li key={`${error.row}-${error.field}-${i}`}>
            {t('bulkAdd.rowError', {
              row: error.row,
              field: t(`bulkAdd.columns.${error.field}`, { defaultValue: error.field }),
              message: translate(error.message),
            })}
          </li>
        ))}
      </ul>
    </section>
  );
}

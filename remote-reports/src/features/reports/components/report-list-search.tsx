import { useTranslation } from '@portal/shared-ui';
import { SearchInput } from '@portal/shared-ui/widgets';

/** docs/requirements.md#lists: one global, debounced search box over the list. */
export function ReportListSearch({ onChange }: { onChange: (filter: string) => void }) {
  const { t } = useTranslation('reports');
  return (
    <SearchInput
      label={t('list.search')}
      placeholder={t('list.searchPlaceholder')}
      onChange={onChange}
    />
  );
}

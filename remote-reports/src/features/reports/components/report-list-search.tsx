import { useTranslation } from '@portal/shared-ui';
import { SearchInput } from '@portal/shared-ui/widgets';

/** docs/requirements.md#lists: one global, debounced search box over the list. */
export function ReportListSearch({ onChange, defaultValue }: { onChange: (filter: string) => void; defaultValue?: string }) {
  const { t } = useTranslation('reports');
  return (
    <SearchInput
      label={t('list.search')}
      placeholder={t('list.searchPlaceholder')}
      onChange={onChange}
      defaultValue={defaultValue}
    />
  );
}

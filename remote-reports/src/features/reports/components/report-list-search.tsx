import { useTranslation } from '@portal/shared-ui';
import { SearchInput } from '@portal/shared-ui/widgets';

/** Spec §2: one global, debounced search box over the list. */
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

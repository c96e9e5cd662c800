import { useFormatDate, useTranslation } from '@portal/shared-ui';
import { formatNumber } from '../../../lib/format';

/** How the insight and progress screens write their numbers and days, in the interface language. */
export function useInsightFormat() {
  const { t, i18n } = useTranslation('reports');
  const formatDate = useFormatDate();
  const language = i18n.language;
  const none = t('insight.none');
  return {
    count: (value: number) => formatNumber(value, language, 0),
    /** A share 0–1 as a percentage. */
    rate: (value: number | null) => (value === null ? none : t('insight.percent', { value: formatNumber(value * 100, language, 1) })),
    /** A mark in percent. */
    mark: (value: number | null) => (value === null ? t('insight.notMarked') : t('insight.percent', { value: formatNumber(value, language, 1) })),
    /** A change in percentage points, signed. */
    change: (value: number | null) =>
      value === null
        ? none
        : t('insight.points', {
            value: new Intl.NumberFormat(language || 'en', { maximumFractionDigits: 1, signDisplay: 'exceptZero' }).format(value),
          }),
    ratio: (value: number | null) => (value === null ? none : t('insight.ratio', { value: formatNumber(value, language, 2) })),
    day: (value: string | null) => (value ? formatDate(value, 'day') : none),
    time: (value: string) => formatDate(value, 'dayTime'),
    none,
  };
}
export type InsightFormat = ReturnType<typeof useInsightFormat>;

import dayjs from 'dayjs';

/**
 * Spec §9 report time "d/MM/yyyy H:mmaaa" (date-fns tokens), written in dayjs tokens. The spec's
 * 24-hour H with an am/pm suffix is kept as specified.
 */
export const REPORT_TIME_FORMAT = 'D/MM/YYYY H:mma';

export function formatReportTime(iso: string): string {
  const value = dayjs(iso);
  return value.isValid() ? value.format(REPORT_TIME_FORMAT) : '';
}

/** Numbers in the interface language, at most `maxDigits` decimals. */
export function formatNumber(value: number, language: string, maxDigits = 2): string {
  return new Intl.NumberFormat(language || 'en', { maximumFractionDigits: maxDigits }).format(value);
}

import { formatDate } from '@portal/shared-ui';

/**
 * docs/requirements.md#limits-and-defaults report time "d/MM/yyyy H:mmaaa" in English (the 24-hour H with an am/pm suffix is
 * kept as specified); German readers get d.M.yyyy H:mm.
 */
export function formatReportTime(iso: string, language: string): string {
  return formatDate(iso, 'reportTime', language);
}

/** Numbers in the interface language, at most `maxDigits` decimals. */
export function formatNumber(value: number, language: string, maxDigits = 2): string {
  return new Intl.NumberFormat(language || 'en', { maximumFractionDigits: maxDigits }).format(value);
}

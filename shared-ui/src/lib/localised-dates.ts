import { useTranslation } from '../i18n/react-i18next';

export type DateStyle = 'day' | 'dayTime' | 'reportTime';

/**
 * The formats of docs/requirements.md#limits-and-defaults (dd/MM/yyyy, report time d/MM/yyyy H:mmaaa) are the English default;
 * German readers get their own conventions: a dotted day and a 24-hour clock without am/pm.
 * Tokens as dayjs writes them (YYYY, MM, M, DD, D, HH, H, mm, a); formatDate knows only these,
 * so that no date library is on every first visit (issue #11: dayjs was ≈ 3 kB gzip of it).
 */
const FORMATS: Record<'en' | 'de', Record<DateStyle, string>> = {
  en: { day: 'DD/MM/YYYY', dayTime: 'DD/MM/YYYY HH:mm', reportTime: 'D/MM/YYYY H:mma' },
  de: { day: 'DD.MM.YYYY', dayTime: 'DD.MM.YYYY HH:mm', reportTime: 'D.M.YYYY H:mm' },
};

export function dateFormatFor(style: DateStyle, language: string | undefined): string {
  const base = (language ?? 'en').split('-')[0];
  return (base === 'de' ? FORMATS.de : FORMATS.en)[style];
}

// A day or a date-time without an offset is the reader's local time (as dayjs reads it);
// `new Date('2026-03-07')` alone would take it as UTC midnight.
const LOCAL_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3})\d*)?)?)?$/;

function parseDate(value: string): Date {
  const local = LOCAL_TIME.exec(value);
  if (!local) return new Date(value);
  const [, year, month, day, hours, minutes, seconds, millis] = local.map(Number);
  return new Date(year!, month! - 1, day!, hours || 0, minutes || 0, seconds || 0, millis || 0);
}

const two = (n: number) => String(n).padStart(2, '0');
const TOKENS = /YYYY|MM|M|DD|D|HH|H|mm|a/g;

function format(date: Date, pattern: string): string {
  return pattern.replace(TOKENS, (token) => {
    switch (token) {
      case 'YYYY':
        return String(date.getFullYear()).padStart(4, '0');
      case 'MM':
        return two(date.getMonth() + 1);
      case 'M':
        return String(date.getMonth() + 1);
      case 'DD':
        return two(date.getDate());
      case 'D':
        return String(date.getDate());
      case 'HH':
        return two(date.getHours());
      case 'H':
        return String(date.getHours());
      case 'mm':
        return two(date.getMinutes());
      default:
        return date.getHours() < 12 ? 'am' : 'pm';
    }
  });
}

/** A day (yyyy-MM-dd) or instant (ISO 8601) for reading in the given language; '' when invalid. */
export function formatDate(value: string | null | undefined, style: DateStyle, language: string | undefined): string {
  if (!value) return '';
  const parsed = parseDate(value);
  return Number.isNaN(parsed.getTime()) ? '' : format(parsed, dateFormatFor(style, language));
}

/** formatDate in the interface language, following a language switch. */
export function useFormatDate(): (value: string | null | undefined, style: DateStyle) => string {
  const { i18n } = useTranslation();
  return (value, style) => formatDate(value, style, i18n.language);
}

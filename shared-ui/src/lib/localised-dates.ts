import dayjs from 'dayjs';
import { useTranslation } from '../i18n/react-i18next';

export type DateStyle = 'day' | 'dayTime' | 'reportTime';

/**
 * The spec's formats (§9: dd/MM/yyyy, report time d/MM/yyyy H:mmaaa) are the English default;
 * German readers get their own conventions: a dotted day and a 24-hour clock without am/pm.
 */
const FORMATS: Record<'en' | 'de', Record<DateStyle, string>> = {
  en: { day: 'DD/MM/YYYY', dayTime: 'DD/MM/YYYY HH:mm', reportTime: 'D/MM/YYYY H:mma' },
  de: { day: 'DD.MM.YYYY', dayTime: 'DD.MM.YYYY HH:mm', reportTime: 'D.M.YYYY H:mm' },
};

export function dateFormatFor(style: DateStyle, language: string | undefined): string {
  const base = (language ?? 'en').split('-')[0];
  return (base === 'de' ? FORMATS.de : FORMATS.en)[style];
}

/** A day (yyyy-MM-dd) or instant (ISO 8601) for reading in the given language; '' when invalid. */
export function formatDate(value: string | null | undefined, style: DateStyle, language: string | undefined): string {
  if (!value) return '';
  const parsed = dayjs(value);
  return parsed.isValid() ? parsed.format(dateFormatFor(style, language)) : '';
}

/** formatDate in the interface language, following a language switch. */
export function useFormatDate(): (value: string | null | undefined, style: DateStyle) => string {
  const { i18n } = useTranslation();
  return (value, style) => formatDate(value, style, i18n.language);
}

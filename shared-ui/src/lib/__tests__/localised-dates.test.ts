import { dateFormatFor, formatDate } from '../localised-dates';

describe('formatDate', () => {
  it('keeps the spec formats in English', () => {
    expect(formatDate('2026-03-07', 'day', 'en')).toBe('07/03/2026');
    expect(formatDate('2026-03-07T14:05:00', 'dayTime', 'en')).toBe('07/03/2026 14:05');
    expect(formatDate('2026-03-07T14:05:00', 'reportTime', 'en')).toBe('7/03/2026 14:05pm');
  });

  it('follows German conventions in German', () => {
    expect(formatDate('2026-03-07', 'day', 'de')).toBe('07.03.2026');
    expect(formatDate('2026-03-07T14:05:00', 'dayTime', 'de')).toBe('07.03.2026 14:05');
    expect(formatDate('2026-03-07T14:05:00', 'reportTime', 'de-DE')).toBe('7.3.2026 14:05');
  });

  it('falls back to English for other languages and says nothing for missing or invalid values', () => {
    expect(dateFormatFor('day', 'fr')).toBe('DD/MM/YYYY');
    expect(formatDate(null, 'day', 'en')).toBe('');
    expect(formatDate('not a date', 'day', 'de')).toBe('');
  });
});

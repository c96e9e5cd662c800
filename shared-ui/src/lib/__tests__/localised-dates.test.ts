import dayjs from 'dayjs';
import { dateFormatFor, formatDate } from '../localised-dates';

describe('formatDate', () => {
  it('keeps the required formats in English', () => {
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

describe('formatDate without a date library', () => {
  it('reads a day or a date-time without offset as local time, and keeps the clock at 0 and 12', () => {
    expect(formatDate('2026-12-31', 'dayTime', 'en')).toBe('31/12/2026 00:00');
    expect(formatDate('2026-03-07T00:05:00', 'reportTime', 'en')).toBe('7/03/2026 0:05am');
    expect(formatDate('2026-03-07T12:00:00.250', 'reportTime', 'en')).toBe('7/03/2026 12:00pm');
    expect(formatDate('2026-03-07 09:30', 'dayTime', 'de')).toBe('07.03.2026 09:30');
  });

  it('writes every format as dayjs does, for days, local times and instants', () => {
    const values = [
      '2026-01-01',
      '2026-03-07T14:05:00',
      '2026-10-25T23:59:59.999',
      '2026-11-25T09:41:00.123Z',
      '2026-06-30T00:00:00+02:00',
      '1999-12-31T11:59:00Z',
      // Out-of-range parts roll over, in dayjs as in Date.
      '2026-13-45T25:61',
    ];
    for (const value of values) {
      for (const language of ['en', 'de']) {
        for (const style of ['day', 'dayTime', 'reportTime'] as const) {
          expect(formatDate(value, style, language)).toBe(dayjs(value).format(dateFormatFor(style, language)));
        }
      }
    }
  });

  it('says nothing for a string that is no date', () => {
    expect(formatDate('yesterday', 'day', 'en')).toBe('');
  });
});

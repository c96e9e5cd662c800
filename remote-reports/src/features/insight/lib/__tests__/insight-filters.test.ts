import { dayNumber, filtersToParams, insightSearch, parseFilters, parseId } from '../insight-filters';

const parse = (search: string) => parseFilters(new URLSearchParams(search));

describe('insight filters from the URL', () => {
  it('passes valid values on as the contract query', () => {
    expect(parse('from=2026-01-01&to=2026-03-31&productId=2&configuration=Knee&learner=00000000-0000-4000-8000-000000000012')).toEqual({
      values: { from: '2026-01-01', to: '2026-03-31', productId: '2', configuration: 'Knee', learner: '00000000-0000-4000-8000-000000000012' },
      query: { from: '2026-01-01', to: '2026-03-31', productId: 2, configuration: 'Knee', learner: '00000000-0000-4000-8000-000000000012' },
      errors: {},
    });
    expect(parse('')).toEqual({ values: { from: '', to: '', productId: '', configuration: '', learner: '' }, query: {}, errors: {} });
  });

  it('accepts real calendar days only', () => {
    expect(dayNumber('2024-02-29')).not.toBeNull();
    expect(dayNumber('2026-02-29')).toBeNull();
    expect(dayNumber('2026-13-01')).toBeNull();
    expect(dayNumber('26-01-01')).toBeNull();
    expect(parse('from=2026-02-29').errors).toEqual({ from: 'invalidDate' });
  });

  it('counts both ends of the range: 366 days pass, 367 do not; an end before the start is refused', () => {
    expect(parse('from=2025-01-01&to=2026-01-01').errors).toEqual({});
    expect(parse('from=2025-01-01&to=2026-01-02')).toMatchObject({ errors: { to: 'rangeTooLong' }, query: {} });
    expect(parse('from=2026-01-02&to=2026-01-01')).toMatchObject({ errors: { to: 'toBeforeFrom' }, query: {} });
    expect(parse('from=2026-01-01&to=2026-01-01').query).toEqual({ from: '2026-01-01', to: '2026-01-01' });
  });

  it('takes positive int4 ids only, and configurations of at most 255 characters', () => {
    expect(parseId('2147483647')).toBe(2147483647);
    expect(parseId('2147483648')).toBeNull();
    expect(parseId('0')).toBeNull();
    expect(parseId('01')).toBeNull();
    expect(parseId('1.5')).toBeNull();
    expect(parse('productId=-1&learner=x').errors).toEqual({ productId: 'invalidId', learner: 'invalidId' });
    expect(parse(`configuration=${'a'.repeat(255)}`).errors).toEqual({});
    expect(parse(`configuration=${'a'.repeat(256)}`).errors).toEqual({ configuration: 'tooLong' });
  });

  it('writes new values back, keeping the organisation and leaving empty fields out', () => {
    const next = filtersToParams(new URLSearchParams('organisation=5&from=2026-01-01'), { to: '2026-02-01', configuration: '  ' });
    expect(next.toString()).toBe('organisation=5&to=2026-02-01');
    expect(insightSearch({ learner: '00000000-0000-4000-8000-000000000003', from: '2026-01-01' })).toBe('?from=2026-01-01&learner=00000000-0000-4000-8000-000000000003');
    expect(insightSearch({})).toBe('');
  });
});

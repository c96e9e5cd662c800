import { act, renderHook } from '@testing-library/react';
import { isInvalidPage, usePagedListState, useResetOnInvalidPage } from '../use-paged-list-state';

const invalidPage = Object.assign(new Error('Not found'), {
  status: 404,
  body: { detail: 'Invalid page.' },
});

describe('usePagedListState', () => {
  it('starts at page 1 with the given ordering and no search', () => {
    const { result } = renderHook(() => usePagedListState({ ordering: '-id' }));
    expect(result.current.params).toEqual({ page: 1, ordering: '-id', filter: '' });
  });

  it('goes back to page 1 on a new search or sort, but keeps them when paging', () => {
    const { result } = renderHook(() => usePagedListState({ ordering: 'name' }));
    act(() => result.current.setPage(3));
    act(() => result.current.setFilter('knee'));
    expect(result.current.params).toEqual({ page: 1, ordering: 'name', filter: 'knee' });
    act(() => result.current.setPage(2));
    act(() => result.current.setOrdering('-name'));
    expect(result.current.params).toEqual({ page: 1, ordering: '-name', filter: 'knee' });
    act(() => result.current.setPage(4));
    expect(result.current.params).toEqual({ page: 4, ordering: '-name', filter: 'knee' });
  });
});

describe('useResetOnInvalidPage', () => {
  it("tells 'Invalid page.' from other not-found errors", () => {
    expect(isInvalidPage(invalidPage)).toBe(true);
    expect(
      isInvalidPage(Object.assign(new Error(), { status: 404, body: { detail: 'Not found.' } })),
    ).toBe(false);
    expect(
      isInvalidPage(Object.assign(new Error(), { status: 400, body: { detail: 'Invalid page.' } })),
    ).toBe(false);
    expect(isInvalidPage(null)).toBe(false);
  });

  it("resets to page 1 on 'Invalid page.' and reports that it is resetting until it has", () => {
    const { result } = renderHook(() => {
      const list = usePagedListState({ ordering: '-id' });
      const error = list.params.page === 5 ? invalidPage : undefined;
      return { list, resetting: useResetOnInvalidPage(error, list.params.page, list.setPage) };
    });
    act(() => result.current.list.setPage(5));
    expect(result.current.list.params.page).toBe(1);
    expect(result.current.resetting).toBe(false);
  });

  it('leaves page 1 alone, so a list that is empty on page 1 does not loop', () => {
    const setPage = jest.fn();
    const { result } = renderHook(() => useResetOnInvalidPage(invalidPage, 1, setPage));
    expect(result.current).toBe(false);
    expect(setPage).not.toHaveBeenCalled();
  });
});

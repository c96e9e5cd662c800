import { act, renderHook, screen } from '@testing-library/react';
import { useDebouncedValue } from '../../widgets/use-debounced-value';
import { usePageTitle } from '../use-page-title';
import { useProduct } from '../../theme/product-context';
import { renderApp } from '../../test/render';

function Page({ name }: { name: string }) {
  usePageTitle(name);
  const { version } = useProduct();
  return <p>{version}</p>;
}

describe('usePageTitle', () => {
  it('sets the title to "<page name> - <product name>" and restores it on unmount', () => {
    document.title = 'Before';
    const { unmount, rerender } = renderApp(<Page name="Reports" />);
    expect(document.title).toBe('Reports - Simulation Portal');
    rerender(<Page name="Downloads" />);
    expect(document.title).toBe('Downloads - Simulation Portal');
    unmount();
    expect(document.title).toBe('Before');
  });

  it('exposes the product version through useProduct', () => {
    renderApp(<Page name="Reports" />, { version: '2.0.0' });
    expect(screen.getByText('2.0.0')).toBeInTheDocument();
  });

  it('fails clearly outside UiProvider', () => {
    jest.spyOn(console, 'error').mockImplementation(() => {});
    expect(() => renderHook(() => usePageTitle('x'))).toThrow('useProduct() must be used inside <UiProvider>.');
    jest.restoreAllMocks();
  });
});

describe('useDebouncedValue', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('returns a new value only after it stopped changing for the delay', () => {
    const { result, rerender } = renderHook(({ value }) => useDebouncedValue(value, 300), {
      initialProps: { value: 'a' },
    });
    rerender({ value: 'ab' });
    act(() => jest.advanceTimersByTime(200));
    rerender({ value: 'abc' });
    act(() => jest.advanceTimersByTime(200));
    expect(result.current).toBe('a');
    act(() => jest.advanceTimersByTime(100));
    expect(result.current).toBe('abc');
  });
});

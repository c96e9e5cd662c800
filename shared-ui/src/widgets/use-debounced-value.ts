import { useEffect, useState } from 'react';

/** The value as it was once it stopped changing for `delay` ms. */
export function useDebouncedValue<T>(value: T, delay = 300): T {
  if (!(delay >= 0)) throw new Error(`useDebouncedValue: delay must be >= 0, got ${delay}.`);
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return debounced;
}

const taken = new Map<string, string | null>();

/**
 * Reads `name` from the page's URL fragment once and removes it from the address bar (and so
 * from history and from any link copied from it); later calls answer the value read. A secret in
 * the fragment reaches no server log and no Referer; this keeps it out of the history too.
 */
export function takeFragmentValue(name: string): string | null {
  if (taken.has(name)) return taken.get(name) ?? null;
  const fragment = new URLSearchParams(window.location.hash.replace(/^#/, ''));
  const value = fragment.get(name) || null;
  taken.set(name, value);
  if (fragment.has(name)) {
    fragment.delete(name);
    const rest = fragment.toString();
    const { pathname, search } = window.location;
    window.history.replaceState(
      window.history.state,
      '',
      `${pathname}${search}${rest ? `#${rest}` : ''}`,
    );
  }
  return value;
}

/** Tests start each page with a fresh address. */
export function forgetFragmentValues() {
  taken.clear();
}

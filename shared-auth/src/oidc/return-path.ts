/**
 * Only same-origin absolute paths may come back from the login round trip, otherwise the state
 * parameter would be an open redirect.
 */
export function sanitizeReturnPath(value: unknown): string {
  if (typeof value !== 'string' || !value.startsWith('/') || value.startsWith('//')) return '/';
  if (value.includes('\\')) return '/';
  return value;
}

export function currentPath(): string {
  const { pathname, search, hash } = window.location;
  return `${pathname}${search}${hash}`;
}

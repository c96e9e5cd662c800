/**
 * Just enough of a browser for driving the provider with fetch: a cookie jar that honours cookie
 * paths and deletions, and manual redirects so each hop can be asserted.
 */
// RFC 6265 path-match: the cookie path is the request path or a "directory" above it.
const pathMatches = (cookiePath: string, requestPath: string): boolean =>
  requestPath === cookiePath ||
  requestPath.startsWith(cookiePath.endsWith('/') ? cookiePath : `${cookiePath}/`);

export class Browser {
  private readonly cookies = new Map<string, { value: string; path: string }>();

  constructor(readonly origin?: string) {}

  cookieHeader(url: URL): string {
    return [...this.cookies]
      .filter(([, cookie]) => pathMatches(cookie.path, url.pathname))
      .map(([name, cookie]) => `${name}=${cookie.value}`)
      .join('; ');
  }

  hasCookie(name: string): boolean {
    return this.cookies.has(name);
  }

  cookie(name: string): { value: string; path: string } | undefined {
    return this.cookies.get(name);
  }

  private store(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';').map((part) => part.trim());
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      const attr = (key: string) =>
        attributes.find((a) => a.toLowerCase().startsWith(`${key}=`))?.slice(key.length + 1);
      const expires = attr('expires');
      const maxAge = attr('max-age');
      const deleted = !value || (expires && Date.parse(expires) <= Date.now()) || maxAge === '0';
      if (deleted) this.cookies.delete(name);
      else this.cookies.set(name, { value, path: attr('path') ?? '/' });
    }
  }

  async fetch(input: string | URL, init: RequestInit = {}): Promise<Response> {
    const url = new URL(input);
    const headers = new Headers(init.headers);
    const cookie = this.cookieHeader(url);
    if (cookie) headers.set('cookie', cookie);
    if (this.origin && init.method && init.method !== 'GET') headers.set('origin', this.origin);
    const response = await fetch(url, { ...init, headers, redirect: 'manual' });
    this.store(response);
    return response;
  }

  /** Follows redirects on the provider's origin; stops at the first one that leaves it. */
  async follow(input: string | URL, init: RequestInit = {}, maxHops = 10): Promise<Response> {
    let url = new URL(input);
    let response = await this.fetch(url, init);
    for (let hop = 0; hop < maxHops; hop += 1) {
      const location = response.headers.get('location');
      if (response.status < 300 || response.status >= 400 || !location) return response;
      const next = new URL(location, url);
      if (next.origin !== url.origin) return response;
      url = next;
      response = await this.fetch(url);
    }
    throw new Error('too many redirects');
  }
}

export function formFrom(html: string): { action: string; fields: Record<string, string> } {
  const form = /<form[^>]*action="([^"]+)"[^>]*>([\s\S]*?)<\/form>/i.exec(html);
  if (!form) throw new Error(`no form in page:\n${html}`);
  const fields: Record<string, string> = {};
  for (const input of form[2]!.matchAll(/<input[^>]*>/gi)) {
    const name = /name="([^"]*)"/.exec(input[0])?.[1];
    const value = /value="([^"]*)"/.exec(input[0])?.[1] ?? '';
    if (name) fields[name] = value.replace(/&amp;/g, '&');
  }
  return { action: form[1]!.replace(/&amp;/g, '&'), fields };
}

export const formBody = (fields: Record<string, string>) => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields).toString(),
});

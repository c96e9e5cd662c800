import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/** WCAG 2.1 A and AA: the level the portal promises. */
export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

type AxeResults = Awaited<ReturnType<AxeBuilder['analyze']>>;

/** One line per violation and one per offending node, so a failure says what to fix and where. */
export function describeViolations(violations: AxeResults['violations']): string {
  return violations
    .map((v) =>
      [
        `${v.id} (${v.impact ?? 'no impact'}): ${v.help}`,
        `  ${v.helpUrl}`,
        ...v.nodes.map(
          (node) =>
            `  - ${JSON.stringify(node.target)}: ${node.failureSummary?.replace(/\n\s*/g, ' ') ?? ''}`,
        ),
      ].join('\n'),
    )
    .join('\n');
}

/** Issue #12: WCAG 2.2 A/AA and axe's best practices (landmarks, one h1, heading order…). */
export const WCAG22_AND_BEST_PRACTICE_TAGS = [...WCAG_TAGS, 'wcag22a', 'wcag22aa', 'best-practice'];

/** Runs axe on the page as it is now and fails with every violation spelled out. */
export async function expectNoAxeViolations(page: Page, screen: string, tags: readonly string[] = WCAG_TAGS) {
  const { violations } = await new AxeBuilder({ page }).withTags([...tags]).analyze();
  expect(
    violations,
    `axe on ${screen} (${page.url()}):\n${describeViolations(violations)}`,
  ).toEqual([]);
}

/** The access token of the signed-in portal user (oidc-client-ts keeps it in localStorage). */
async function accessToken(page: Page): Promise<string> {
  const token = await page.evaluate(() => {
    for (const key of Object.keys(localStorage)) {
      if (key.startsWith('oidc.user:'))
        return (JSON.parse(localStorage.getItem(key) ?? '{}') as { access_token?: string })
          .access_token;
    }
    return undefined;
  });
  if (!token) throw new Error('no signed-in portal user in this page');
  return token;
}

/** The page's user calls the API as the portal does: bearer token, and the XSRF cookie echoed. */
export async function callApiAs(page: Page, method: 'GET' | 'PUT', path: string, data?: unknown) {
  const token = await accessToken(page);
  const headers: Record<string, string> = { Authorization: `Bearer ${token}` };
  if (method === 'GET') return page.request.get(path, { headers });
  // A GET first, so the API has set the XSRF cookie the PUT must echo.
  await page.request.get(path, { headers });
  const xsrf = (await page.context().cookies()).find((c) => c.name === 'XSRF-TOKEN')?.value ?? '';
  return page.request.put(path, { headers: { ...headers, 'X-XSRF-TOKEN': xsrf }, data });
}

/**
 * Stores the cookie choice through the API as the page's user, the way the modal does. Other
 * specs expect some demo accounts never to have chosen, so tests that accept put `false` back.
 */
export async function setCookiePreference(
  page: Page,
  userId: string,
  allowEssentialCookies: boolean,
) {
  const token = await accessToken(page);
  const path = `/api/v1/user/${userId}/cookie-preference`;
  // A GET first, so the API has set the XSRF cookie the PUT must echo.
  await page.request.get(path, { headers: { Authorization: `Bearer ${token}` } });
  const xsrf = (await page.context().cookies()).find((c) => c.name === 'XSRF-TOKEN')?.value ?? '';
  const response = await page.request.put(path, {
    headers: { Authorization: `Bearer ${token}`, 'X-XSRF-TOKEN': xsrf },
    data: { allowEssentialCookies },
  });
  expect(response.status(), `PUT ${path}`).toBe(200);
}

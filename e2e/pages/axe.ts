import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect, type Page } from '@playwright/test';
import type { AxeResults, RunOptions } from 'axe-core';

/** WCAG 2.1 A and AA: the level the portal promises. */
export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/**
 * axe-core itself, evaluated in each frame of the page (as @axe-core/playwright does, so no page
 * policy applies) and run there. Not @axe-core/playwright's AxeBuilder: it costs about 1.9 s a
 * check here against 0.15 s for the same rules run directly, and the accessibility suite runs
 * hundreds of checks.
 */
const AXE_SOURCE = readFileSync(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
);

declare global {
  interface Window {
    axe?: { run(context: Document, options: RunOptions): Promise<AxeResults> };
  }
}

/** The violations axe finds on the page as it is now, frames included. */
export async function axeViolations(
  page: Page,
  tags: readonly string[],
): Promise<AxeResults['violations']> {
  for (const frame of page.frames()) {
    if (frame.isDetached()) continue;
    const loaded = await frame.evaluate(() => window.axe !== undefined).catch(() => true);
    // A subframe may navigate while axe goes in (the silent sign-in frame ends on its redirect
    // page): it is skipped, as one that could not be asked above. The page itself must not.
    if (!loaded) {
      await frame.evaluate(AXE_SOURCE).catch((error: unknown) => {
        if (frame === page.mainFrame()) throw error;
      });
    }
  }
  return page.evaluate(
    async (values) => {
      if (!window.axe) throw new Error('axe-core did not load into the page');
      const results = await window.axe.run(document, {
        runOnly: { type: 'tag', values },
        // Passes and inapplicable rules are not reported: only what fails is needed.
        resultTypes: ['violations'],
      });
      return results.violations;
    },
    [...tags],
  );
}

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
export async function expectNoAxeViolations(
  page: Page,
  screen: string,
  tags: readonly string[] = WCAG_TAGS,
) {
  const violations = await axeViolations(page, tags);
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

import { readFileSync } from 'node:fs';
import { test, expect } from '../fixtures';

// Issue #11: a remote built against a shared-ui the page's copy does not satisfy is refused with a
// contained "this area needs an update" view (logged with both versions), instead of running with
// missing exports. The reports remote is the real build, served as deployed, except that its
// consumes data asks for the next major shared-ui — what a build against it declares.
const REPORTS_ENTRY = 'http://localhost:8082/remoteEntry.js';
const provided = (
  JSON.parse(readFileSync(new URL('../../shared-ui/package.json', import.meta.url), 'utf8')) as {
    version: string;
  }
).version;
const nextMajor = `${Number(provided.split('.')[0]) + 1}.0.0`;

test('a remote built for another shared-ui version is refused with a contained view; the rest keeps working', async ({
  portal,
  page,
}) => {
  const logged: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') logged.push(message.text());
  });
  let rewritten = 0;
  await page.route(REPORTS_ENTRY, async (route) => {
    const response = await route.fetch();
    const body = (await response.text()).replace(
      /requiredVersion:"\^[0-9.]+"(,strictVersion:!0,[^}]*?shareKey:"@portal\/shared-ui")/g,
      (_match, rest: string) => {
        rewritten += 1;
        return `requiredVersion:"^${nextMajor}"${rest}`;
      },
    );
    await route.fulfill({ response, body });
  });

  await portal.signInAt('/simulation', 'learner@demo.test');
  await portal.acceptCookiesIfAsked();
  // Pointing at the link loads the area ahead of the click. Let that load meet the refusal first:
  // the click then gets the module the runtime kept, which once showed "unavailable" instead.
  const reports = page.getByRole('link', { name: 'Reports', exact: true });
  await reports.hover();
  await expect
    .poll(() => logged.some((text) => text.startsWith('Remote reports/routes failed to load')))
    .toBe(true);
  await reports.click();

  await expect(
    page.getByRole('heading', { level: 1, name: 'This area needs an update' }),
  ).toBeVisible();
  expect(rewritten, 'the remote declares its shared-ui requirement as strict').toBeGreaterThan(0);
  await expect(page.getByRole('button', { name: 'Retry' })).toHaveCount(0);
  expect(
    logged.some((text) =>
      text.includes(
        `Remote reports needs an update: built for @portal/shared-ui ^${nextMajor}, this portal provides ${provided}`,
      ),
    ),
  ).toBe(true);

  // The rest of the portal keeps working.
  await page.getByRole('link', { name: 'Simulations', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Simulations' })).toBeVisible();
});

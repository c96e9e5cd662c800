import { ALT_HOST_URL } from '../playwright.config';
import { test, expect } from '../fixtures';

// The second host's launch links use the product's own protocol (vmc-radiography://…), which no
// app on this machine handles: the window never loses focus and no simulator joins the session.
test.use({ baseURL: ALT_HOST_URL });

test('a launch whose simulator never opens ends on the "simulation not installed" page', async ({
  portal,
  page,
  simulations,
}) => {
  await portal.signInAt('/simulation', 'learner@demo.test');
  await portal.acceptCookiesIfAsked();
  await simulations.drillDown('Radiography', 'Upper limb', 'Wrist');
  await simulations.launchButton('Desktop').click();

  await expect(page.getByRole('heading', { name: 'Launching simulation' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Open the simulator' })).toHaveAttribute(
    'href',
    /^vmc-radiography:\/\/launch\?token=/,
  );
  await expect(page).toHaveURL(/\/simulation\/launch\/error$/, { timeout: 20_000 });
  await expect(page.getByRole('heading', { name: 'Simulation not installed' })).toBeVisible();
  // Chromium's "open this app?" prompt for the unknown scheme holds the tab's input, as it would
  // for a person; the way on is the link to the installers.
  await expect(page.getByRole('main').getByRole('link', { name: 'Downloads' })).toHaveAttribute(
    'href',
    /^\/user\/[0-9a-f-]{36}\/downloads$/,
  );
});

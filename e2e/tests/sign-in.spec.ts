import { test, expect } from '../fixtures';

test.describe('a learner signing in', () => {
  test('lands on /simulation rendered by the simulation remote, with one React, and logs out', async ({
    portal,
    page,
  }) => {
    // Count React DOM renderers as React DevTools would: two copies of React in the page would
    // register two renderers.
    await page.addInitScript(() => {
      const renderers: unknown[] = [];
      (window as unknown as Record<string, unknown>).__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
        supportsFiber: true,
        renderers: new Map(),
        inject(renderer: unknown) {
          renderers.push(renderer);
          return renderers.length;
        },
        onScheduleFiberRoot() {},
        onCommitFiberRoot() {},
        onCommitFiberUnmount() {},
        onPostCommitFiberRoot() {},
        checkDCE() {},
      };
      (window as unknown as Record<string, unknown>).__reactRenderers = renderers;
    });
    const remoteEntries: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('remoteEntry.js')) remoteEntries.push(request.url());
    });

    await portal.signInAt('/', 'learner@demo.test');
    await portal.acceptCookiesIfAsked();

    await expect(page).toHaveURL(/\/simulation$/);
    await expect(page.getByRole('heading', { name: 'Simulations' })).toBeVisible();
    expect(remoteEntries).toContain('http://localhost:8081/remoteEntry.js');
    await expect(page).toHaveTitle(/ - Simulation Portal$/);

    const rendererCount = await page.evaluate(
      () => ((window as unknown as Record<string, unknown[]>).__reactRenderers ?? []).length,
    );
    expect(rendererCount).toBe(1);

    await page.getByRole('link', { name: /log ?out/i }).last().click();
    await portal.signInPage.expectVisible();
    // Signed out for real: the portal asks for sign-in again.
    await page.goto('/simulation');
    await portal.signInPage.expectVisible();
  });
});

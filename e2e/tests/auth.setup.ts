import { test as setup } from '../fixtures';
import type { DemoEmail } from '../pages/sign-in-page';

// Sign in once per role; the portal keeps its OIDC user in localStorage, which storage state
// carries, so the other tests start signed in.
const roles: Record<string, DemoEmail> = {
  learner: 'learner@demo.test',
  sysadmin: 'sysadmin@demo.test',
};

for (const [role, email] of Object.entries(roles)) {
  setup(`sign in as ${role}`, async ({ portal, page }) => {
    await portal.signInAt('/', email);
    await portal.acceptCookiesIfAsked();
    await page.context().storageState({ path: `.auth/${role}.json` });
  });
}

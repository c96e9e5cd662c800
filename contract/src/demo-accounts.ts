/**
 * The demo accounts, shared by the identity provider (who signs them in) and the API seed (who
 * they are in our database). `sub` is the stable subject the identity provider puts in tokens,
 * as Keycloak does with its user ids. The data is JSON so plain scripts can read it too.
 */
import demo from './demo-accounts.json';
import cohort from './demo-cohort.json';

export interface DemoAccount {
  sub: string;
  email: string;
  firstName: string;
  lastName: string;
  organisation: 'Demo Hospital' | 'Other College' | 'Demo Brightspace College' | null;
  role: 'learner' | 'educator' | 'org admin' | 'sys admin';
  language: string;
}

export const DEMO_PASSWORD: string = demo.password;
export const DEMO_ACCOUNTS: readonly DemoAccount[] = demo.accounts as DemoAccount[];

/** The demo organisation whose learning platform is Brightspace (the learning-platform stand-in). */
export const DEMO_BRIGHTSPACE_ORGANISATION = 'Demo Brightspace College';

/**
 * The learner, educator and org admin of Demo Brightspace College. Brightspace sign-in applies to
 * its learner and educator only: after the portal's sign-in they are sent on to Brightspace once,
 * to link their accounts, while the five DEMO_ACCOUNTS reach their home page at once. The org
 * admin is exempt like every administrator, and is who may stay on the Brightspace user mismatch
 * page. The identity provider, the API seed and the learning-platform stand-in know them like the
 * DEMO_ACCOUNTS.
 */
export const DEMO_BRIGHTSPACE_ACCOUNTS: readonly DemoAccount[] =
  demo.brightspaceAccounts as DemoAccount[];

/**
 * Learners of the demo activity (API setting SEED_DEMO_ACTIVITY): 42 at Demo Hospital, 14 at
 * Other College, all with the role learner. The identity provider always knows them, with the
 * demo password; the API adds them, with their licences and reports, only with that setting.
 * They are not in DEMO_ACCOUNTS, whose five accounts the tests and the README name one by one.
 */
export const DEMO_COHORT: readonly DemoAccount[] = cohort.learners as DemoAccount[];

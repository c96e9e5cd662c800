/**
 * The demo accounts, shared by the identity provider (who signs them in) and the API seed (who
 * they are in our database). `sub` is the stable subject the identity provider puts in tokens,
 * as Keycloak does with its user ids. The data is JSON so plain scripts can read it too.
 */
import demo from './demo-accounts.json';

export interface DemoAccount {
  sub: string;
  email: string;
  firstName: string;
  lastName: string;
  organisation: 'Demo Hospital' | 'Other College' | null;
  role: 'learner' | 'educator' | 'org admin' | 'sys admin';
  language: string;
}

export const DEMO_PASSWORD: string = demo.password;
export const DEMO_ACCOUNTS: readonly DemoAccount[] = demo.accounts as DemoAccount[];

/**
 * The demo accounts, shared by the identity provider (who signs them in) and the API seed (who
 * they are in our database). `sub` is the stable subject the identity provider puts in tokens,
 * as Keycloak does with its user ids.
 */
export interface DemoAccount {
  sub: string;
  email: string;
  firstName: string;
  lastName: string;
  organisation: 'Demo Hospital' | 'Other College' | null;
  role: 'learner' | 'educator' | 'org admin' | 'sys admin';
  language: string;
}

export const DEMO_PASSWORD = 'demo1234';

export const DEMO_ACCOUNTS: readonly DemoAccount[] = [
  {
    sub: '6f1c2a52-0d5e-4b8e-9a47-1b2f6a7c0001',
    email: 'learner@demo.test',
    firstName: 'Lena',
    lastName: 'Learner',
    organisation: 'Demo Hospital',
    role: 'learner',
    language: 'en',
  },
  {
    sub: '6f1c2a52-0d5e-4b8e-9a47-1b2f6a7c0002',
    email: 'educator@demo.test',
    firstName: 'Eddie',
    lastName: 'Educator',
    organisation: 'Demo Hospital',
    role: 'educator',
    language: 'en',
  },
  {
    sub: '6f1c2a52-0d5e-4b8e-9a47-1b2f6a7c0003',
    email: 'orgadmin@demo.test',
    firstName: 'Olga',
    lastName: 'Orgadmin',
    organisation: 'Demo Hospital',
    role: 'org admin',
    language: 'en',
  },
  {
    sub: '6f1c2a52-0d5e-4b8e-9a47-1b2f6a7c0004',
    email: 'sysadmin@demo.test',
    firstName: 'Sam',
    lastName: 'Sysadmin',
    organisation: null,
    role: 'sys admin',
    language: 'en',
  },
  {
    sub: '6f1c2a52-0d5e-4b8e-9a47-1b2f6a7c0005',
    email: 'learner@other.test',
    firstName: 'Otto',
    lastName: 'Other',
    organisation: 'Other College',
    role: 'learner',
    language: 'de',
  },
];

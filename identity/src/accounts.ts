import { createHash, timingSafeEqual } from 'node:crypto';

import { DEMO_ACCOUNTS, DEMO_PASSWORD, type DemoAccount } from '@portal/contract/demo-accounts';

export type { DemoAccount };

const digest = (value: string): Buffer => createHash('sha256').update(value, 'utf8').digest();

// Hashing first gives equal-length buffers, so timingSafeEqual never leaks the password length.
const DEMO_PASSWORD_DIGEST = digest(DEMO_PASSWORD);

export function findAccountBySub(sub: string): DemoAccount | undefined {
  return DEMO_ACCOUNTS.find((account) => account.sub === sub);
}

/** How sign-in compares emails; rate limits count per this form, so case tricks get no extra tries. */
export const normalizeEmail = (email: string): string => email.trim().toLowerCase();

export function findAccountByEmail(email: string): DemoAccount | undefined {
  const wanted = normalizeEmail(email);
  return DEMO_ACCOUNTS.find((account) => account.email.toLowerCase() === wanted);
}

/**
 * Returns the account when email and password match. The password comparison runs even for an
 * unknown email so that response time does not reveal which emails exist.
 */
export function verifyCredentials(email: string, password: string): DemoAccount | undefined {
  const account = findAccountByEmail(email);
  const passwordMatches = timingSafeEqual(digest(password), DEMO_PASSWORD_DIGEST);
  return account && passwordMatches ? account : undefined;
}

/**
 * The provider's password rules. docs/requirements.md names none, so these are Keycloak's usual realm policy
 * `length(8) and notEmail and notUsername`, plus an upper bound that keeps hashing cheap.
 */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;

export type PasswordProblem = 'missing' | 'tooShort' | 'tooLong' | 'equalsEmail' | 'mismatch';

export interface PasswordCheck {
  password: string;
  /** The second entry of the form; undefined where there is none (the admin API). */
  confirmation?: string;
  email: string;
  username: string;
}

/** The first problem of the password itself and, separately, of its confirmation. */
export function checkPassword({ password, confirmation, email, username }: PasswordCheck): {
  password?: PasswordProblem;
  confirmation?: PasswordProblem;
} {
  // Counted in characters as the user sees them, not UTF-16 units.
  const length = [...password.normalize('NFC')].length;
  const lowered = password.trim().toLowerCase();
  let problem: PasswordProblem | undefined;
  if (length === 0) problem = 'missing';
  else if (length < PASSWORD_MIN_LENGTH) problem = 'tooShort';
  else if (length > PASSWORD_MAX_LENGTH) problem = 'tooLong';
  else if (lowered === email.toLowerCase() || lowered === username.toLowerCase()) problem = 'equalsEmail';
  const result: { password?: PasswordProblem; confirmation?: PasswordProblem } = {};
  if (problem) result.password = problem;
  if (confirmation !== undefined && !problem && confirmation !== password) result.confirmation = 'mismatch';
  return result;
}

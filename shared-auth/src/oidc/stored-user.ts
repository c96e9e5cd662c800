import type { User } from 'oidc-client-ts';

/**
 * The part of oidc-client-ts' `User` the portal reads. Both the library's `User` and
 * `StoredUser` below satisfy it, so the portal can run on the stored session before (or without)
 * loading the library.
 */
export type SessionUser = Pick<
  User,
  | 'access_token'
  | 'token_type'
  | 'id_token'
  | 'profile'
  | 'expires_at'
  | 'expires_in'
  | 'expired'
  | 'state'
  | 'session_state'
>;

const epochSeconds = () => Math.floor(Date.now() / 1000);

/**
 * A user as oidc-client-ts 3 keeps it in storage (`User.toStorageString`: JSON of the tokens,
 * profile and `expires_at` in epoch seconds), read without the library. Its getters compute
 * `expires_in` and `expired` the way `User` does; a test keeps the two in step.
 */
export class StoredUser implements SessionUser {
  readonly access_token: string;
  readonly token_type: string;
  readonly id_token?: string;
  readonly profile: User['profile'];
  readonly expires_at?: number;
  /** OpenID Connect Session Management: what the login-status check sends (session-monitor.ts). */
  readonly session_state: string | null;
  readonly state: unknown = undefined;

  private constructor(stored: Record<string, unknown>) {
    if (typeof stored.access_token !== 'string') throw new Error('stored user has no access_token');
    if (!stored.profile || typeof stored.profile !== 'object')
      throw new Error('stored user has no profile');
    this.access_token = stored.access_token;
    this.token_type = typeof stored.token_type === 'string' ? stored.token_type : '';
    this.id_token = typeof stored.id_token === 'string' ? stored.id_token : undefined;
    this.profile = stored.profile as User['profile'];
    this.expires_at = typeof stored.expires_at === 'number' ? stored.expires_at : undefined;
    this.session_state = typeof stored.session_state === 'string' ? stored.session_state : null;
  }

  /** Throws on a string that is not a stored user, as `User.fromStorageString` does. */
  static parse(storageString: string): StoredUser {
    const stored: unknown = JSON.parse(storageString);
    if (!stored || typeof stored !== 'object') throw new Error('stored user is not an object');
    return new StoredUser(stored as Record<string, unknown>);
  }

  get expires_in(): number | undefined {
    return this.expires_at === undefined ? undefined : this.expires_at - epochSeconds();
  }

  get expired(): boolean | undefined {
    const left = this.expires_in;
    return left === undefined ? undefined : left <= 0;
  }
}

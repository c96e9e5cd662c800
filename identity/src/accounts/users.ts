import { randomUUID } from 'node:crypto';
import { join } from 'node:path';

import type { Logger } from 'pino';
import {
  DEMO_ACCOUNTS,
  DEMO_BRIGHTSPACE_ACCOUNTS,
  DEMO_COHORT,
  DEMO_PASSWORD,
  type DemoAccount,
} from '@portal/contract/demo-accounts';

import { DEFAULT_PASSWORD_HASH_LOG2_N, dummyPasswordHash, hashPassword, verifyPassword } from './passwords';
import { createUsersFileWriter, FILE_VERSION, readUsersFile, USERS_FILE } from './users-file';

/** The one required action this provider can carry out (through the e-mailed set-password link). */
export const UPDATE_PASSWORD = 'UPDATE_PASSWORD';
export const SUPPORTED_REQUIRED_ACTIONS: readonly string[] = [UPDATE_PASSWORD];

/** A user as Keycloak's user representation names the fields, plus what only the provider sees. */
export interface UserRecord {
  id: string;
  /**
   * The e-mail address when the account has one (sign-in by e-mail); otherwise the username it was
   * created with (a user a learning platform launched without an e-mail, `lti-<portal id>`).
   */
  username: string;
  /** '' when the account has none (then the admin API's representation leaves it out). */
  email: string;
  firstName: string;
  lastName: string;
  enabled: boolean;
  emailVerified: boolean;
  requiredActions: string[];
  createdTimestamp: number;
  attributes: Record<string, string[]>;
  /** scrypt hash (passwords.ts); absent until the user has set a password. */
  passwordHash?: string;
  /**
   * Counts password changes. Set-password links carry the value they were made for, so a link
   * stops working once it has been used, even after a restart forgot which links were used.
   */
  credentialVersion: number;
  /** Realm roles beyond Keycloak's defaults; only the demo accounts have one. */
  roles: string[];
  /** Links to brokered identity providers (Keycloak's federated identities); absent = none. */
  federatedIdentities?: FederatedIdentity[];
}

/** Keycloak's FederatedIdentityRepresentation: this account is `userId` at `identityProvider`. */
export interface FederatedIdentity {
  identityProvider: string;
  userId: string;
  userName: string;
}

export type LinkResult = 'linked' | 'user_not_found' | 'already_linked' | 'taken';

export interface NewUser {
  /** '' for an account without e-mail; `username` names it then. */
  email: string;
  /** Only for an account without e-mail (with one, the e-mail is the username). */
  username?: string;
  firstName?: string;
  lastName?: string;
  enabled?: boolean;
  emailVerified?: boolean;
  requiredActions?: string[];
  attributes?: Record<string, string[]>;
  passwordHash?: string;
}

export type UserPatch = Partial<Omit<NewUser, 'passwordHash' | 'username'>>;

export class UserConflictError extends Error {
  constructor(readonly field: 'username' | 'email') {
    super(`User exists with same ${field}`);
    this.name = 'UserConflictError';
  }
}

export interface UserStore {
  get(id: string): UserRecord | undefined;
  findByEmail(email: string): UserRecord | undefined;
  /** Every user, ordered by username as Keycloak lists them. */
  all(): UserRecord[];
  create(input: NewUser): UserRecord;
  update(id: string, patch: UserPatch): UserRecord | undefined;
  delete(id: string): boolean;
  /** Stores a new password hash, clears UPDATE_PASSWORD and invalidates earlier set-password links. */
  setPasswordHash(id: string, passwordHash: string, options?: { emailVerified?: boolean }): UserRecord | undefined;
  /**
   * The user when the e-mail and password match an enabled account with no pending required
   * action. Always runs one scrypt comparison, so the answer takes as long for unknown accounts.
   */
  verifyCredentials(email: string, password: string): Promise<UserRecord | undefined>;
  /** A new password's hash at this provider's cost, for setPasswordHash or a new user. */
  hashPassword(password: string): Promise<string>;
  /** The account linked to `userId` at the identity provider `alias`, if any. */
  findByFederatedIdentity(alias: string, userId: string): UserRecord | undefined;
  /**
   * Links the account to an identity at a provider: one link per provider and account
   * (`already_linked`), one account per identity (`taken`), as Keycloak's unique constraints.
   */
  addFederatedIdentity(id: string, link: FederatedIdentity): LinkResult;
  /** false when the account has no link to that provider (or does not exist). */
  removeFederatedIdentity(id: string, alias: string): boolean;
  /** Resolves once everything changed so far is on disk (immediately without a data dir). */
  flush(): Promise<void>;
}

/** How sign-in and the admin API compare e-mails; Keycloak also keeps them lower-cased. */
export const normalizeEmail = (email: string): string => email.trim().toLowerCase();

/** `locale` attribute as Keycloak keeps it (a list of one), or undefined. */
export const userLocale = (user: Pick<UserRecord, 'attributes'>): string | undefined => user.attributes.locale?.[0];


/**
 * Accounts every provider starts with: the demo accounts, Demo Brightspace College's and the demo
 * activity's learners, all with the demo password and their fixed ids (the API's users have the
 * same ids).
 */
export const SEEDED_ACCOUNTS: readonly DemoAccount[] = [
  ...DEMO_ACCOUNTS,
  ...DEMO_BRIGHTSPACE_ACCOUNTS,
  ...DEMO_COHORT,
];
const SEEDED_IDS = new Set(SEEDED_ACCOUNTS.map((account) => account.sub));

const demoHashes = new Map<number, Promise<string>>();
/** One hash per process and cost: the demo password is public, so sharing its salt hides nothing. */
function demoPasswordHash(log2N: number): Promise<string> {
  let hash = demoHashes.get(log2N);
  if (!hash) {
    hash = hashPassword(DEMO_PASSWORD, log2N);
    demoHashes.set(log2N, hash);
  }
  return hash;
}

function demoRecord(account: DemoAccount, passwordHash: string): UserRecord {
  return {
    id: account.sub,
    username: account.email.toLowerCase(),
    email: account.email.toLowerCase(),
    firstName: account.firstName,
    lastName: account.lastName,
    enabled: true,
    emailVerified: true,
    requiredActions: [],
    createdTimestamp: Date.now(),
    attributes: {
      locale: [account.language],
      ...(account.organisation ? { organisation: [account.organisation] } : {}),
    },
    passwordHash,
    credentialVersion: 0,
    roles: [account.role],
  };
}

/** A user as the admin API creates it: Keycloak's defaults for whatever the input leaves out. */
function newUserRecord(username: string, email: string, input: NewUser): UserRecord {
  return {
    id: randomUUID(),
    username,
    email,
    firstName: input.firstName ?? '',
    lastName: input.lastName ?? '',
    // Keycloak creates a user disabled unless the representation says enabled: true.
    enabled: input.enabled ?? false,
    emailVerified: input.emailVerified ?? false,
    requiredActions: [...new Set(input.requiredActions ?? [])],
    createdTimestamp: Date.now(),
    attributes: structuredClone(input.attributes ?? {}),
    ...(input.passwordHash ? { passwordHash: input.passwordHash } : {}),
    credentialVersion: 0,
    roles: [],
  };
}

export interface UserStoreOptions {
  /** Where `users.json` lives; null keeps users in memory only (tests). */
  dataDir: string | null;
  logger: Logger;
  /**
   * Add the demo accounts (known password) that are missing and were not deleted: SEED_DEMO, as
   * the API's demo data. Off, the store holds only what the admin API created (and what an
   * earlier start with it on left in users.json).
   */
  seedDemo: boolean;
  /** scrypt's cost for new hashes, as log2 N (passwords.ts); tests lower it. */
  passwordHashLog2N?: number;
}

/**
 * What `users.json` holds, plus the demo accounts that are missing and were not deleted (with
 * `seedDemo`); `changed` when the file is new or gained demo accounts.
 */
async function loadUsers(file: string | null, seedDemo: boolean, log2N: number) {
  const byId = new Map<string, UserRecord>();
  const idByEmail = new Map<string, string>();
  const stored = file ? await readUsersFile(file) : undefined;
  for (const user of stored?.users ?? []) {
    byId.set(user.id, user);
    idByEmail.set(user.username, user.id);
  }
  const deletedDemoIds = new Set<string>(stored?.deletedDemoIds ?? []);
  const missingDemo = seedDemo
    ? SEEDED_ACCOUNTS.filter((account) => !byId.has(account.sub) && !deletedDemoIds.has(account.sub))
    : [];
  if (missingDemo.length > 0) {
    const hash = await demoPasswordHash(log2N);
    for (const account of missingDemo) {
      if (idByEmail.has(account.email.toLowerCase())) continue;
      const user = demoRecord(account, hash);
      byId.set(user.id, user);
      idByEmail.set(user.email, user.id);
    }
  }
  return { byId, idByEmail, deletedDemoIds, changed: !stored || missingDemo.length > 0 };
}

/**
 * The provider's users: with `seedDemo` the demo accounts with their fixed ids, and everyone
 * created through the admin API. Reads are synchronous from memory (indexed by id and e-mail, for bulk imports of
 * thousands); with a data dir every change is written to `users.json` atomically (temporary file
 * + rename, mode 600) and at most one write runs at a time, the last state winning.
 */
export async function createUserStore({
  dataDir,
  logger,
  seedDemo,
  passwordHashLog2N: log2N = DEFAULT_PASSWORD_HASH_LOG2_N,
}: UserStoreOptions): Promise<UserStore> {
  const file = dataDir ? join(dataDir, USERS_FILE) : null;
  const { byId, idByEmail, deletedDemoIds, changed } = await loadUsers(file, seedDemo, log2N);

  const { persist, flush } = createUsersFileWriter({
    file,
    logger,
    snapshot: () => ({ version: FILE_VERSION, users: [...byId.values()], deletedDemoIds: [...deletedDemoIds] }),
  });

  if (file && changed) persist();

  const copy = (user: UserRecord | undefined): UserRecord | undefined => (user ? structuredClone(user) : undefined);

  // Keyed by username, which is the e-mail for everyone who has one: an e-mail given to an account
  // without one replaces its username too.
  function changeEmail(user: UserRecord, email: string): void {
    const owner = idByEmail.get(email);
    if (owner !== undefined && owner !== user.id) throw new UserConflictError('email');
    idByEmail.delete(user.username);
    user.email = email;
    user.username = email;
    idByEmail.set(email, user.id);
  }

  return {
    get: (id) => copy(byId.get(id)),
    findByEmail: (email) => {
      const key = normalizeEmail(email);
      const id = idByEmail.get(key);
      const user = id === undefined ? undefined : byId.get(id);
      return copy(user?.email === key ? user : undefined);
    },
    all: () =>
      [...byId.values()]
        .sort((a, b) => (a.username < b.username ? -1 : a.username > b.username ? 1 : 0))
        .map((user) => structuredClone(user)),

    create(input) {
      const email = normalizeEmail(input.email);
      const username = email || normalizeEmail(input.username ?? '');
      if (!username) throw new UserConflictError('username');
      // Email is the username here, so Keycloak would name the username as the duplicate.
      if (idByEmail.has(username)) throw new UserConflictError('username');
      const user = newUserRecord(username, email, input);
      byId.set(user.id, user);
      idByEmail.set(username, user.id);
      persist();
      return structuredClone(user);
    },

    update(id, patch) {
      const user = byId.get(id);
      if (!user) return undefined;
      if (patch.email !== undefined) changeEmail(user, normalizeEmail(patch.email));
      if (patch.firstName !== undefined) user.firstName = patch.firstName;
      if (patch.lastName !== undefined) user.lastName = patch.lastName;
      if (patch.enabled !== undefined) user.enabled = patch.enabled;
      if (patch.emailVerified !== undefined) user.emailVerified = patch.emailVerified;
      if (patch.requiredActions !== undefined) user.requiredActions = [...new Set(patch.requiredActions)];
      if (patch.attributes !== undefined) user.attributes = structuredClone(patch.attributes);
      persist();
      return structuredClone(user);
    },

    delete(id) {
      const user = byId.get(id);
      if (!user) return false;
      byId.delete(id);
      idByEmail.delete(user.username);
      if (SEEDED_IDS.has(id)) deletedDemoIds.add(id);
      persist();
      return true;
    },

    setPasswordHash(id, passwordHash, { emailVerified } = {}) {
      const user = byId.get(id);
      if (!user) return undefined;
      user.passwordHash = passwordHash;
      user.credentialVersion += 1;
      user.requiredActions = user.requiredActions.filter((action) => action !== UPDATE_PASSWORD);
      if (emailVerified) user.emailVerified = true;
      persist();
      return structuredClone(user);
    },

    hashPassword: (password) => hashPassword(password, log2N),

    async verifyCredentials(email, password) {
      const id = idByEmail.get(normalizeEmail(email));
      const candidate = id === undefined ? undefined : byId.get(id);
      const hash = candidate?.passwordHash ?? (await dummyPasswordHash(log2N));
      const matches = await verifyPassword(password, hash);
      // Read again after the await: the user may have been deleted or disabled meanwhile.
      const user = id === undefined ? undefined : byId.get(id);
      if (!matches || !user || !user.enabled || user.passwordHash !== hash) return undefined;
      // A pending password update can only be done through the e-mailed link (routes/set-password).
      if (user.requiredActions.length > 0) return undefined;
      return structuredClone(user);
    },

    findByFederatedIdentity(alias, userId) {
      for (const user of byId.values()) {
        if (user.federatedIdentities?.some((l) => l.identityProvider === alias && l.userId === userId)) return copy(user);
      }
      return undefined;
    },

    addFederatedIdentity(id, link) {
      const user = byId.get(id);
      if (!user) return 'user_not_found';
      if (user.federatedIdentities?.some((l) => l.identityProvider === link.identityProvider)) return 'already_linked';
      for (const other of byId.values()) {
        if (other.federatedIdentities?.some((l) => l.identityProvider === link.identityProvider && l.userId === link.userId)) return 'taken';
      }
      user.federatedIdentities = [...(user.federatedIdentities ?? []), { ...link }];
      persist();
      return 'linked';
    },

    removeFederatedIdentity(id, alias) {
      const user = byId.get(id);
      const links = user?.federatedIdentities ?? [];
      if (!user || !links.some((l) => l.identityProvider === alias)) return false;
      user.federatedIdentities = links.filter((l) => l.identityProvider !== alias);
      persist();
      return true;
    },

    async flush() {
      await flush();
    },
  };
}

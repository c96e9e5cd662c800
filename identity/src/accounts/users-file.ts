import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

import type { Logger } from 'pino';

import { isPasswordHash } from './passwords';
import type { UserRecord } from './users';

export const USERS_FILE = 'users.json';
export const FILE_VERSION = 1;

export interface UsersFile {
  version: number;
  users: UserRecord[];
  /** Demo accounts a global administrator deleted: they must not come back at the next start. */
  deletedDemoIds: string[];
}

const isStringList = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((item) => typeof item === 'string');

function isUserRecord(value: unknown): value is UserRecord {
  const user = value as Partial<UserRecord> | null;
  return (
    typeof user === 'object' &&
    user !== null &&
    typeof user.id === 'string' &&
    typeof user.username === 'string' &&
    typeof user.email === 'string' &&
    typeof user.firstName === 'string' &&
    typeof user.lastName === 'string' &&
    typeof user.enabled === 'boolean' &&
    typeof user.emailVerified === 'boolean' &&
    isStringList(user.requiredActions) &&
    typeof user.createdTimestamp === 'number' &&
    typeof user.attributes === 'object' &&
    user.attributes !== null &&
    Object.values(user.attributes).every(isStringList) &&
    (user.passwordHash === undefined || isPasswordHash(user.passwordHash)) &&
    typeof user.credentialVersion === 'number' &&
    isStringList(user.roles) &&
    (user.federatedIdentities === undefined ||
      (Array.isArray(user.federatedIdentities) &&
        user.federatedIdentities.every(
          (link) =>
            typeof link === 'object' &&
            link !== null &&
            typeof link.identityProvider === 'string' &&
            typeof link.userId === 'string' &&
            typeof link.userName === 'string',
        )))
  );
}

export async function readUsersFile(file: string): Promise<UsersFile | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const parsed = JSON.parse(text) as Partial<UsersFile>;
  if (
    parsed.version !== FILE_VERSION ||
    !Array.isArray(parsed.users) ||
    !parsed.users.every(isUserRecord) ||
    !isStringList(parsed.deletedDemoIds)
  ) {
    throw new Error(`${file} is not a users file of version ${FILE_VERSION}; move it away to start with the demo accounts only`);
  }
  return parsed as UsersFile;
}

/**
 * Writes the store's snapshot to `users.json` atomically (temporary file + rename, mode 600), at
 * most one write at a time. Many changes in a burst (a bulk import) become a few writes: while
 * one runs, later changes only mark the state dirty, and the next write takes all of them.
 */
export function createUsersFileWriter({ file, logger, snapshot }: { file: string | null; logger: Logger; snapshot: () => UsersFile }) {
  let writing: Promise<void> = Promise.resolve();
  let pending = false;

  async function writeSnapshot(target: string): Promise<void> {
    const temporary = `${target}.${process.pid}.tmp`;
    await mkdir(dirname(target), { recursive: true, mode: 0o700 });
    await writeFile(temporary, `${JSON.stringify(snapshot())}\n`, { mode: 0o600 });
    await rename(temporary, target);
  }

  return {
    persist(): void {
      if (!file || pending) return;
      pending = true;
      writing = writing.then(async () => {
        pending = false;
        try {
          await writeSnapshot(file);
        } catch (error) {
          logger.error({ err: error, file }, 'could not write the users file');
        }
      });
    },
    flush: () => writing,
  };
}

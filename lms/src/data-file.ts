import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { JWK } from 'jose';
import type { RosterSnapshot } from './roster';
import type { CourseSnapshot } from './store';

/** What a restart keeps (LMS_DATA_DIR): our signing key, the course with its gradebook, and its roster's changes. */
export interface SavedState {
  key: JWK | null;
  course: CourseSnapshot | null;
  members: RosterSnapshot | null;
}

export function dataFile(dir: string) {
  const file = path.join(dir, 'lms.json');
  let state: SavedState = { key: null, course: null, members: null };
  try {
    state = { ...state, ...(JSON.parse(readFileSync(file, 'utf8')) as Partial<SavedState>) };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw new Error(`${file} is not readable: ${(error as Error).message}`);
  }
  return {
    state,
    save(next: Partial<SavedState>) {
      state = { ...state, ...next };
      mkdirSync(dir, { recursive: true });
      // Whole file or nothing; it holds the private key, so only this user reads it.
      const tmp = `${file}.${process.pid}.tmp`;
      writeFileSync(tmp, JSON.stringify(state), { mode: 0o600 });
      renameSync(tmp, file);
    },
  };
}

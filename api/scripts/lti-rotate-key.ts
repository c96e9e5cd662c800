// Rotates the LTI tool key: `pnpm --filter @portal/api lti:rotate-key [--now] [--operator NAME]`.
// Without --now it publishes the next key, which signs from tomorrow (as the 90-day schedule does);
// --now is for a leaked key and signs at once (api/README.md, "LTI tool keys"). Reads the same
// variables as the API: DATABASE_URL or PGLITE_DIR.
import { userInfo } from 'node:os';
import { parseArgs } from 'node:util';
import { createDb } from '../src/db/create-db';
import { migrate } from '../src/db/migrate';
import { runRotateKeyCommand } from '../src/lti/rotate-key-command';
import { embeddedDatabaseInUse, fail, loadCommandConfig } from './command-setup';

const USAGE = 'usage: pnpm --filter @portal/api lti:rotate-key [--now] [--operator "Ada Lovelace"]';

let values: { now?: boolean; operator?: string };
try {
  ({ values } = parseArgs({
    options: { now: { type: 'boolean' }, operator: { type: 'string' } },
  }));
} catch (error) {
  fail(`${(error as Error).message}\n${USAGE}`);
}
// The audit log names who ran it; the login name unless told otherwise.
const operator = (values.operator ?? userInfo().username).trim();
if (operator === '' || operator.length > 100) fail(`--operator: 1 to 100 characters\n${USAGE}`);

const config = loadCommandConfig();
const inUse = await embeddedDatabaseInUse(config);
if (inUse) fail(inUse);

const db = await createDb(config);
try {
  await migrate(db);
  const lines = await runRotateKeyCommand(db, { operator, immediately: values.now === true });
  console.log(lines.join('\n'));
} catch (error) {
  console.error(`Could not rotate the LTI tool key: ${(error as Error).message}`);
  process.exitCode = 1;
} finally {
  // Closed before exit: PGlite writes its last pages on close.
  await db.close();
}

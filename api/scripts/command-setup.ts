// What the API's commands (create-admin, lti-rotate-key) share: the API's own configuration, and
// the embedded database's one-process rule.
import { ConfigError } from '@portal/service-kit';
import { loadConfig, type Config } from '../src/config';

export function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

/** The API's environment, or the command ends naming what is wrong with it. */
export function loadCommandConfig(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) fail(error.message);
    throw error;
  }
}

/**
 * A command refuses to open the embedded database (PGlite, no DATABASE_URL) while the API has it
 * open: PGlite is one process's database, and a second process writing to it would corrupt it.
 * Answers the message to print, or null when the command may go on.
 */
export async function embeddedDatabaseInUse(config: Config): Promise<string | null> {
  if (config.databaseUrl) return null;
  const running = await fetch(`http://localhost:${config.port}/healthz`, {
    signal: AbortSignal.timeout(2_000),
  }).then(
    (res) => res.ok,
    () => false,
  );
  if (!running) return null;
  return (
    `The API is running on port ${config.port} with its embedded database (${config.pgliteDir}), which only one process may open.\n` +
    'Stop the portal (Ctrl+C), run this command again, then start the portal. With PostgreSQL (DATABASE_URL) it may keep running.'
  );
}

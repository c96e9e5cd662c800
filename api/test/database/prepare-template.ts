/**
 * `prepare <name>` makes the run's migrated template (a PGlite data directory at path <name>, or
 * with TEST_DATABASE_URL a PostgreSQL database called <name>); `drop <name>` removes the
 * PostgreSQL one. Called by scripts/run-tests.mjs around the test files.
 */
import { dropPgDatabase, preparePgliteTemplate, preparePgTemplate } from './template';

const [command, name] = process.argv.slice(2);
const url = process.env.TEST_DATABASE_URL;
if (!name || (command !== 'prepare' && command !== 'drop')) {
  console.error('usage: prepare-template.ts prepare|drop <name>');
  process.exit(2);
}
if (command === 'drop') {
  if (url) await dropPgDatabase(url, name);
} else if (url) {
  await preparePgTemplate(url, name);
} else {
  await preparePgliteTemplate(name);
}

// Regenerates keycloak/realm-main.json and keycloak/demo-users.json from src/realm-export.ts:
// `pnpm --filter @portal/identity realm-export`.
import { writeFile } from 'node:fs/promises';

import { demoUsersImportJson, realmExportJson } from '../src/oidc/realm-export';

for (const [file, json] of [
  ['realm-main.json', realmExportJson()],
  ['demo-users.json', demoUsersImportJson()],
] as const) {
  const target = new URL(`../keycloak/${file}`, import.meta.url);
  await writeFile(target, json);
  console.log(`wrote ${target.pathname}`);
}

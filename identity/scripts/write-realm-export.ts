// Regenerates keycloak/realm-main.json from src/realm-export.ts: `pnpm --filter @portal/identity realm-export`.
import { writeFile } from 'node:fs/promises';

import { realmExportJson } from '../src/realm-export';

const target = new URL('../keycloak/realm-main.json', import.meta.url);
await writeFile(target, realmExportJson());
console.log(`wrote ${target.pathname}`);

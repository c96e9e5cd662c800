// The demo accounts for the start banner, from the contract's JSON (this script runs before
// anything is installed, so it cannot import TypeScript).
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from './lib.mjs';

const demo = JSON.parse(fs.readFileSync(path.join(ROOT, 'contract/src/demo-accounts.json'), 'utf8'));
export const DEMO_PASSWORD = demo.password;
export const DEMO_ACCOUNTS = demo.accounts;
export const DEMO_BRIGHTSPACE_ACCOUNTS = demo.brightspaceAccounts;

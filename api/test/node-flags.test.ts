import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { API_NODE_FLAGS } from '../src/node-flags';

const ROOT = path.join(import.meta.dirname, '..', '..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

/** The arguments of the command that starts `src/server.ts` in `text`, as written there. */
function serverCommand(text: string): string {
  const line = text
    .split('\n')
    .filter((l) => !/^\s*(#|\/\/)/.test(l))
    .find((l) => /--import['",\s]+tsx['",\s]+src\/server\.ts/.test(l));
  assert.ok(line, 'no command starts src/server.ts');
  return line;
}

describe('the API’s Node flags', () => {
  test('every start of the API passes them', () => {
    const starts = {
      'scripts/services.mjs (npm start, the e2e stack)': serverCommand(
        read('scripts/services.mjs').split("name: 'api'")[1] ?? '',
      ),
      'deploy/api.Dockerfile': serverCommand(read('deploy/api.Dockerfile')),
      'api/package.json start': JSON.parse(read('api/package.json')).scripts.start as string,
    };
    for (const [where, command] of Object.entries(starts)) {
      for (const flag of API_NODE_FLAGS) assert.ok(command.includes(flag), `${where}: ${command}`);
    }
  });

  test('Node accepts them', () => {
    // A flag Node does not know stops the API before it starts: exit code 9 and a message.
    const out = execFileSync(process.execPath, [...API_NODE_FLAGS, '-e', 'console.log("ok")'], {
      encoding: 'utf8',
    });
    assert.equal(out.trim(), 'ok');
  });
});

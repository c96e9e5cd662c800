import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as api from '../index';
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a CommonJS helper shared by both packages' tests
const { checkApiSurface } = require('../../../tools/api-surface.cjs') as {
  checkApiSurface: (dir: string, exports: object) => string[];
};

describe('the federated API surface', () => {
  it('matches the recorded exports, or the version says how it changed', () => {
    expect(checkApiSurface(path.join(__dirname, '../..'), api)).toEqual([]);
  });
});

describe('the API surface check itself', () => {
  const at = (version: string, recorded: { version: string; exports: string[] }) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'api-surface-'));
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ version }));
    fs.writeFileSync(path.join(dir, 'api-surface.json'), JSON.stringify(recorded));
    return dir;
  };
  const recorded = { version: '1.2.0', exports: ['A', 'B'] };

  it('refuses an added export without a minor bump, and a removed one without a major bump', () => {
    expect(checkApiSurface(at('1.2.0', recorded), { A: 1, B: 1, C: 1 })).toEqual([
      'added C: needs a minor version (package.json says 1.2.0, recorded 1.2.0)',
    ]);
    expect(checkApiSurface(at('1.3.0', recorded), { A: 1 })).toEqual([
      'removed B: needs a major version (package.json says 1.3.0, recorded 1.2.0)',
    ]);
  });

  it('asks to record the exports once the version is right, and is quiet when nothing changed', () => {
    expect(checkApiSurface(at('1.3.0', recorded), { A: 1, B: 1, C: 1 })[0]).toMatch(
      /^exports changed \(\+C\): run the test with UPDATE_API_SURFACE=1/,
    );
    expect(checkApiSurface(at('2.0.0', recorded), { A: 1 })[0]).toMatch(/^exports changed \(-B\)/);
    expect(checkApiSurface(at('1.2.0', recorded), { A: 1, B: 1, __esModule: true })).toEqual([]);
  });
});

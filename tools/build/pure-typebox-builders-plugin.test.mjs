// Builds small fixtures with the host's webpack, with and without the plugin, and looks at which
// modules the bundle holds. Run by the host's `test` script (the host builds with the plugin).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { PureTypeBoxBuildersPlugin } from './pure-typebox-builders-plugin.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const HOST = path.join(ROOT, 'host');
const webpack = createRequire(path.join(HOST, 'package.json'))('webpack');
// The contract's TypeBox, through its link (the package exports no ./package.json).
const TYPEBOX = path.join(ROOT, 'contract/node_modules/@sinclair/typebox');

const SCHEMAS = `import { Type } from '@sinclair/typebox';
export const CONFIRM_PATH = '/confirm';
export const CODES = ['invalid', 'expired'];
export const Preview = Type.Object({ email: Type.String(), at: Type.String({ format: 'date-time' }) });
export const Refusal = Type.Object({ code: Type.Union(CODES.map((c) => Type.Literal(c))) });
`;

const dirs = [];
after(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** A package folder with `schemas.mjs` and an entry importing `names` from it. */
function fixture({ names, sideEffects }) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pure-typebox-'));
  dirs.push(dir);
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'fixture', sideEffects }));
  writeFileSync(path.join(dir, 'schemas.mjs'), SCHEMAS);
  writeFileSync(
    path.join(dir, 'entry.mjs'),
    `import { ${names.join(', ')} } from './schemas.mjs';\nglobalThis.out = [${names.join(', ')}];\n`,
  );
  return dir;
}

/** Whether the production bundle of the fixture holds TypeBox. */
function bundlesTypeBox(dir, { plugin }) {
  const compiler = webpack({
    mode: 'production',
    context: dir,
    entry: './entry.mjs',
    output: { path: path.join(dir, 'dist') },
    resolve: { alias: { '@sinclair/typebox': TYPEBOX } },
    optimization: { minimize: false },
    plugins: plugin ? [new PureTypeBoxBuildersPlugin(HOST)] : [],
  });
  return new Promise((resolve, reject) => {
    compiler.run((error, stats) => {
      compiler.close(() => undefined);
      if (error) return reject(error);
      if (stats.hasErrors()) return reject(new Error(stats.toString('errors-only')));
      const { modules } = stats.toJson({ modules: true, nestedModules: true });
      // Built is not bundled: only modules in a chunk count.
      const names = modules
        .filter((m) => m.chunks.length > 0)
        .flatMap((m) => [m.name, ...(m.modules ?? []).map((n) => n.name)]);
      resolve(names.some((name) => name.includes('typebox')));
    });
  });
}

describe('PureTypeBoxBuildersPlugin', () => {
  it('leaves TypeBox out of a bundle that takes only constants from a schema module', async () => {
    const dir = fixture({ names: ['CONFIRM_PATH', 'CODES'], sideEffects: false });
    assert.equal(await bundlesTypeBox(dir, { plugin: false }), true, 'without the plugin it is in');
    assert.equal(await bundlesTypeBox(dir, { plugin: true }), false);
  });

  it('keeps TypeBox where a schema is used', async () => {
    const dir = fixture({ names: ['CONFIRM_PATH', 'Preview'], sideEffects: false });
    assert.equal(await bundlesTypeBox(dir, { plugin: true }), true);
  });

  it('keeps a schema built by other calls in a package that may have side effects', async () => {
    // Refusal's `CODES.map(…)` is not provably pure outside a side-effect-free package.
    const dir = fixture({ names: ['CONFIRM_PATH'], sideEffects: true });
    assert.equal(await bundlesTypeBox(dir, { plugin: true }), true);
  });
});

// Emits locales/{lng}/translation.json (what shared-ui's i18n backend reads) from the host's
// own strings plus shared-ui's. Two owners of one key would make the winner depend on merge
// order, so a collision fails the build instead.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';

const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Deep-merges `source` into `target`; throws on a key both define as a leaf. */
export function mergeTranslations(target, source, where, keyPath = []) {
  for (const [key, value] of Object.entries(source)) {
    const here = [...keyPath, key];
    if (!(key in target)) {
      target[key] = value;
    } else if (isObject(target[key]) && isObject(value)) {
      mergeTranslations(target[key], value, where, here);
    } else {
      throw new Error(`Translation key collision "${here.join('.')}" (${where})`);
    }
  }
  return target;
}

export class MergeLocalesPlugin {
  /** @param {{ dirs: string[] }} options folders holding `{lng}.json`; the first lists languages */
  constructor({ dirs }) {
    this.dirs = dirs;
  }

  apply(compiler) {
    const { RawSource } = compiler.webpack.sources;
    compiler.hooks.thisCompilation.tap('MergeLocalesPlugin', (compilation) => {
      compilation.hooks.processAssets.tap(
        { name: 'MergeLocalesPlugin', stage: compiler.webpack.Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL },
        () => {
          const languages = readdirSync(this.dirs[0])
            .filter((f) => f.endsWith('.json'))
            .map((f) => path.basename(f, '.json'));
          for (const lng of languages) {
            const merged = {};
            for (const dir of this.dirs) {
              const file = path.join(dir, `${lng}.json`);
              compilation.fileDependencies.add(file);
              let json;
              try {
                json = JSON.parse(readFileSync(file, 'utf8'));
              } catch (err) {
                compilation.errors.push(new compiler.webpack.WebpackError(`${file}: ${err.message}`));
                continue;
              }
              try {
                mergeTranslations(merged, json, `${lng}: ${file}`);
              } catch (err) {
                compilation.errors.push(new compiler.webpack.WebpackError(err.message));
              }
            }
            compilation.emitAsset(`locales/${lng}/translation.json`, new RawSource(JSON.stringify(merged)));
          }
        },
      );
    });
  }
}

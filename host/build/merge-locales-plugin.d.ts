import type { Compiler } from 'webpack';

export function mergeTranslations<T extends object>(target: T, source: object, where: string, keyPath?: string[]): T;

export class MergeLocalesPlugin {
  constructor(options: { dirs: string[] });
  apply(compiler: Compiler): void;
}

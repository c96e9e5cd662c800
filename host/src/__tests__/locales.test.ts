import en from '../../locales/en.json';
import de from '../../locales/de.json';
import sharedEn from '@portal/shared-ui/locales/en.json';
import { mergeTranslations } from '../../build/merge-locales-plugin.js';

function keys(value: object, prefix = ''): string[] {
  return Object.entries(value).flatMap(([key, v]) =>
    typeof v === 'object' && v !== null ? keys(v as object, `${prefix}${key}.`) : [`${prefix}${key}`],
  );
}

describe('host translations', () => {
  it('has the same keys in English and German', () => {
    expect(keys(de).sort()).toEqual(keys(en).sort());
  });

  it('has no empty strings', () => {
    const empty = (v: object): boolean =>
      Object.values(v).some((x) => (typeof x === 'string' ? x.trim() === '' : empty(x as object)));
    expect(empty(en)).toBe(false);
    expect(empty(de)).toBe(false);
  });

  it('does not collide with shared-ui keys (the build merges both)', () => {
    expect(() => mergeTranslations(structuredClone(en), structuredClone(sharedEn), 'en')).not.toThrow();
  });

  it('fails a merge when two files define the same key', () => {
    expect(() => mergeTranslations({ a: { b: 'x' } }, { a: { b: 'y' } }, 'test')).toThrow(
      'Translation key collision "a.b" (test)',
    );
    expect(mergeTranslations({ a: { b: 'x' } }, { a: { c: 'y' } }, 'test')).toEqual({ a: { b: 'x', c: 'y' } });
  });
});

import en from '../../locales/en.json';
import de from '../../locales/de.json';
import { REMOTE_NAME } from '../testing/mount-path';

function keys(value: object, prefix = ''): string[] {
  return Object.entries(value).flatMap(([key, v]) =>
    typeof v === 'object' && v !== null
      ? keys(v as object, `${prefix}${key}.`)
      : [`${prefix}${key}`],
  );
}

describe(`${REMOTE_NAME} translations`, () => {
  it('has the same keys in English and German', () => {
    expect(keys(de).sort()).toEqual(keys(en).sort());
  });

  it(`keeps every key under "${REMOTE_NAME}." so remotes never overwrite each other`, () => {
    expect(Object.keys(en)).toEqual([REMOTE_NAME]);
    expect(Object.keys(de)).toEqual([REMOTE_NAME]);
  });
});

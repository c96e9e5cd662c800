import en from '../../locales/en.json';
import de from '../../locales/de.json';
import { REMOTE, remoteStrings } from '../config/remote';

function keys(value: object, prefix = ''): string[] {
  return Object.entries(value).flatMap(([key, v]) =>
    typeof v === 'object' && v !== null
      ? keys(v as object, `${prefix}${key}.`)
      : [`${prefix}${key}`],
  );
}

describe(`${REMOTE.namespace} translations`, () => {
  it('has the same keys in English and German', () => {
    expect(keys(de).sort()).toEqual(keys(en).sort());
  });

  it(`are namespaced once: by the manifest's "${REMOTE.namespace}" namespace, not under its name again`, () => {
    expect(remoteStrings.namespace).toBe(REMOTE.namespace);
    expect(Object.keys(en)).not.toContain(REMOTE.namespace);
    expect(Object.keys(de)).not.toContain(REMOTE.namespace);
  });
});

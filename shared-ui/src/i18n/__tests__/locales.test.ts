import de from '../../../locales/de.json';
import en from '../../../locales/en.json';

/** Leaf paths; a key under errorMessage may itself contain dots, so paths are arrays joined by ' > '. */
function leaves(value: unknown, path: string[] = []): Map<string, unknown> {
  const out = new Map<string, unknown>();
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    for (const [key, child] of Object.entries(value)) {
      for (const [p, v] of leaves(child, [...path, key])) out.set(p, v);
    }
  } else {
    out.set(path.join(' > '), value);
  }
  return out;
}

describe('shared-ui locales', () => {
  const enLeaves = leaves(en);
  const deLeaves = leaves(de);

  it('have exactly the same keys in English and German', () => {
    expect([...deLeaves.keys()].sort()).toEqual([...enLeaves.keys()].sort());
  });

  it('have no empty or non-string texts', () => {
    for (const [lng, map] of [['en', enLeaves], ['de', deLeaves]] as const) {
      for (const [key, text] of map) {
        if (typeof text !== 'string' || text.trim() === '') throw new Error(`${lng}: "${key}" is empty or not text`);
      }
    }
  });

  it('keep the same interpolation variables in both languages', () => {
    const vars = (text: unknown) => [...String(text).matchAll(/{{\s*(\w+)/g)].map((m) => m[1]).sort();
    for (const [key, text] of enLeaves) expect([key, vars(deLeaves.get(key))]).toEqual([key, vars(text)]);
  });

  it('name the required keys at the top level', () => {
    expect(en.pageNotFound).toBe('Page not found');
    expect(en.common.loading).toBe('Loading...');
    expect(en.common.noRecordsFound).toBe('No records found');
    expect(en.errorFallback.heading).toBe('Something went wrong');
    expect(en.errorFallback.text).toBe('If the problem persists, please contact your administrator.');
    expect(typeof en.sorryWeCouldntFindThePageYoureLookingFor).toBe('string');
    expect(typeof en.submissionErrorsHeading).toBe('string');
  });
});

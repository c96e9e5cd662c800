import { readLaunchRequest, toLtiLaunchSearch } from '../launch-request';

const state = {
  configuration: 'radiography.lower-limb.knee',
  mode: 'VR',
  productId: 1,
  categoryId: 12,
} as const;

describe('reading the launch parameters', () => {
  it('takes navigation state outside LTI and ignores the query there', () => {
    expect(readLaunchRequest({ lti: false, search: '?productId=9&launchId=x', state })).toEqual({
      productId: 1,
      configuration: 'radiography.lower-limb.knee',
      mode: 'VR',
      categoryId: 12,
      launchId: null,
      protocol: null,
    });
  });

  it('has nothing to launch without state, or with state that names no product or no valid mode', () => {
    expect(readLaunchRequest({ lti: false, search: '', state: null })).toBeNull();
    expect(
      readLaunchRequest({ lti: false, search: '', state: { ...state, productId: 'x' } }),
    ).toBeNull();
    expect(
      readLaunchRequest({ lti: false, search: '', state: { ...state, mode: 'Tablet' } }),
    ).toBeNull();
  });

  it('keeps a missing configuration as null (the "problem starting simulation" page)', () => {
    expect(
      readLaunchRequest({ lti: false, search: '', state: { ...state, configuration: '' } })
        ?.configuration,
    ).toBeNull();
  });

  it('reads the LTI query, defaulting the mode to Desktop', () => {
    const search = '?launchId=L1&configuration=c&protocol=vmc-birthing&productId=3';
    expect(readLaunchRequest({ lti: true, search, state: null })).toEqual({
      productId: 3,
      configuration: 'c',
      mode: 'Desktop',
      categoryId: null,
      launchId: 'L1',
      protocol: 'vmc-birthing',
    });
  });

  it("prefers the LTI query to the host's navigation state, which fills the gaps", () => {
    const request = readLaunchRequest({
      lti: true,
      search: '?productId=3&mode=VR',
      state: { launchId: 'L2', configuration: 'c', productId: '1' },
    });
    expect(request).toMatchObject({ productId: 3, mode: 'VR', launchId: 'L2', configuration: 'c' });
  });

  it('refuses an LTI mode that is not one of the modes', () => {
    expect(
      readLaunchRequest({ lti: true, search: '?productId=3&mode=Tablet', state: null }),
    ).toBeNull();
  });
});

describe('the LTI launch query', () => {
  it("keeps the platform's parameters and sets the launch parameters", () => {
    const search = toLtiLaunchSearch('?launchId=L1&configuration=old', {
      ...state,
      mode: 'Desktop',
      configuration: null,
      categoryId: null,
    });
    expect(Object.fromEntries(new URLSearchParams(search))).toEqual({
      launchId: 'L1',
      productId: '1',
      mode: 'Desktop',
    });
  });

  it('keeps an LTI query protocol as the scheme asked for (checked against the product later), and never reads one from navigation state', () => {
    const hostile = 'javascript:alert(document.domain)//';
    const lti = readLaunchRequest({
      lti: true,
      search: `?productId=1&configuration=c&protocol=${encodeURIComponent(hostile)}`,
      state: { protocol: 'vmc-radiography' },
    });
    const portal = readLaunchRequest({
      lti: false,
      search: `?protocol=${encodeURIComponent(hostile)}`,
      state: { ...state, protocol: hostile },
    });
    // The query's value, not the state's: the state cannot ask for a scheme.
    expect(lti?.protocol).toBe(hostile);
    expect(portal?.protocol).toBeNull();
    expect(
      readLaunchRequest({ lti: true, search: '?productId=1', state: { protocol: hostile } })
        ?.protocol,
    ).toBeNull();
  });
});

import { parseRuntimeConfig } from '../runtime-config';
import { runtimeConfig } from '../../testing/fixtures';

describe('parseRuntimeConfig', () => {
  it('accepts what the host server sends', () => {
    expect(parseRuntimeConfig(runtimeConfig())).toEqual(runtimeConfig());
  });

  it('names every missing part of a bad config', () => {
    expect(() => parseRuntimeConfig({ ...runtimeConfig(), remotes: { simulation: 'x' }, oidc: null })).toThrow(
      '/config.json: oidc must be an object; remotes.reports must be a string; remotes.admin must be a string',
    );
  });
});

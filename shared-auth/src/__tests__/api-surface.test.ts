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

// Shared jest set-up for the front-end packages: swc transpiles TS/TSX to CommonJS (fast, no
// type-check: `check-types` does that), jsdom with Node's fetch/streams restored for MSW.
const path = require('node:path');

/**
 * jest-axe's `toHaveNoViolations`, registered for the packages that have jest-axe (a dev dependency
 * of those that run axe checks; resolved from the package, as the root does not have it).
 * @param {string} dir
 */
function axeMatcher(dir) {
  try {
    return [require.resolve('jest-axe/extend-expect', { paths: [dir] })];
  } catch {
    return [];
  }
}

/** @param {string} dir the package folder */
module.exports = (dir) => ({
  rootDir: dir,
  testEnvironment: 'jest-fixed-jsdom',
  testMatch: ['<rootDir>/src/**/__tests__/**/*.test.{ts,tsx}', '<rootDir>/src/**/*.test.{ts,tsx}'],
  transform: {
    '^.+\\.(t|j)sx?$': [
      require.resolve('@swc/jest', { paths: [dir] }),
      {
        jsc: {
          parser: { syntax: 'typescript', tsx: true },
          transform: { react: { runtime: 'automatic' } },
          target: 'es2022',
        },
        module: { type: 'commonjs' },
      },
    ],
  },
  // ESM-only packages in node_modules that jest must transpile too.
  transformIgnorePatterns: ['/node_modules/(?!(\\.pnpm/)?(until-async|@mswjs|msw|@bundled-es-modules))'],
  moduleNameMapper: { '\\.(css|png|svg|jpg)$': path.join(__dirname, 'tools/jest-file-stub.cjs') },
  setupFilesAfterEnv: [path.join(__dirname, 'tools/jest-setup.cjs'), ...axeMatcher(dir)],
  testEnvironmentOptions: { customExportConditions: [''] },
  // Beside the API's suite in `npm test`, a component test that waits on several screens in turn
  // can pass jest's 5 s default on two busy cores; each wait (findBy*, waitFor) still has its own.
  testTimeout: 20_000,
});

// Lint rules shared by every package: type-only imports stay type-only (so the
// contract's schemas never leak into browser bundles), no import cycles, and
// remotes/features never reach into one another.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import i18next from 'eslint-plugin-i18next';
import eslintComments from '@eslint-community/eslint-plugin-eslint-comments';
import globals from 'globals';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { readdirSync } from 'node:fs';

// react-router and react-i18next reach the front ends only through shared-ui's facades: they are
// not federation-shared (a shared module ships whole), so any other import would bundle a second
// copy with its own router or i18n context (docs/architecture.md, "Router facade").
const ROUTER_FACADE = "Use shared-ui's facade: '@portal/shared-ui' (in shared-ui: src/router.ts).";
const I18N_FACADE =
  "Use shared-ui's facade: '@portal/shared-ui' (in shared-ui: src/i18n/react-i18next.ts).";
// react-final-form is not federation-shared either: apps take it from '@portal/shared-ui/forms',
// so an app holds one copy and a field always finds its form's context.
const FORMS_FACADE = "Use '@portal/shared-ui/forms' (in shared-ui: src/forms/index.ts).";
const FACADE_ONLY = {
  paths: [
    { name: 'react-router-dom', message: ROUTER_FACADE },
    { name: 'react-router', message: ROUTER_FACADE },
    { name: 'react-i18next', message: I18N_FACADE },
    { name: 'react-final-form', message: FORMS_FACADE },
    { name: 'final-form', message: FORMS_FACADE },
  ],
  patterns: [
    { group: ['react-router/*', 'react-router-dom/*'], message: ROUTER_FACADE },
    { group: ['react-i18next/*'], message: I18N_FACADE },
    { group: ['react-final-form/*', 'final-form/*'], message: FORMS_FACADE },
  ],
};

// Layers inside a front-end app (docs/conventions.md#front-ends, bulletproof-react): shared → features → app. A feature
// never imports another feature or src/app/, and no front-end app imports another; found from the
// folders, so a new feature is fenced without touching this file.
const FRONT_ENDS = ['host', 'remote-simulation', 'remote-reports', 'remote-admin'];
const featuresOf = (app) => {
  try {
    return readdirSync(new URL(`./${app}/src/features`, import.meta.url), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
  } catch {
    return [];
  }
};
const layerZones = ({ tests }) =>
  FRONT_ENDS.flatMap((app) => [
    ...featuresOf(app).map((feature) => ({
      target: `./${app}/src/features/${feature}`,
      from: `./${app}/src/features`,
      except: [`./${feature}`],
      message:
        'A feature does not import another feature: move what both need to src/components, src/lib or a shared package.',
    })),
    // A feature's tests may render it inside the app's own providers.
    ...(tests
      ? []
      : [
          {
            target: `./${app}/src/features`,
            from: `./${app}/src/app`,
            message:
              'Features do not import src/app/ (router, providers): data flows shared → features → app.',
          },
        ]),
    ...FRONT_ENDS.filter((other) => other !== app).map((other) => ({
      target: `./${app}`,
      from: `./${other}`,
      message:
        'Front-end apps are deployed on their own and never import each other; share through shared-ui, shared-auth or the contract.',
    })),
  ]);

// Layers of the API (docs/conventions.md#api): routes → services → repositories → database. A
// route never touches the database itself, nothing imports a route (autoload finds them), a
// repository knows nothing above it, and a service nothing of HTTP.
const API = './api/src';
const API_LAYER_ZONES = [
  {
    target: `${API}/routes`,
    from: `${API}/db`,
    message: 'No SQL in routes: read through app.repos, write through a service in src/services.',
  },
  {
    target: `${API}/repositories`,
    from: [
      'routes',
      'services',
      'plugins',
      'outbox',
      'jobs',
      'lti',
      'identity',
      'brightspace',
      'mail',
      'demo',
      'storage',
    ].map((layer) => `${API}/${layer}`),
    message:
      'A repository takes a query handle and knows nothing above it: move shared types into repositories/ or the contract.',
  },
  {
    target: `${API}/services`,
    from: [`${API}/routes`, `${API}/plugins`],
    message:
      'A service is one use case in a unit of work; it knows nothing of HTTP routes or app plugins.',
  },
  {
    target: [`${API}/outbox`, `${API}/jobs`],
    from: [`${API}/routes`, `${API}/plugins`, `${API}/services`],
    message:
      'The outbox engine and the scheduler know their handlers and jobs only through what registers with them.',
  },
  {
    target: [
      'repositories',
      'services',
      'plugins',
      'outbox',
      'jobs',
      'lib',
      'lti',
      'identity',
      'brightspace',
      'mail',
      'demo',
      'reference',
      'storage',
      'db',
    ].map((layer) => `${API}/${layer}`),
    from: `${API}/routes`,
    message: 'Nothing imports a route: @fastify/autoload loads them from the folder of their URL.',
  },
];

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      '**/@mf-types/**',
      '**/test-results/**',
      '**/playwright-report/**',
      '**/.data/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: {
      'import-x': importX,
      'react-hooks': reactHooks,
      '@eslint-community/eslint-comments': eslintComments,
    },
    settings: {
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: ['*/tsconfig.json'],
          noWarnOnMultipleProjects: true,
        }),
      ],
    },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      'import-x/no-cycle': 'error',
      'import-x/no-restricted-paths': ['error', { zones: layerZones({ tests: false }) }],
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      // A rule switched off in place says why, after `--`.
      '@eslint-community/eslint-comments/require-description': [
        'error',
        { ignore: ['eslint-enable'] },
      ],
      '@eslint-community/eslint-comments/no-unused-disable': 'error',
    },
  },
  {
    // WCAG in the editor: the plugin's recommended rules on every component. A disable needs a
    // reason in its comment (eslint-comments style: `-- why`).
    files: ['**/*.tsx'],
    ...jsxA11y.flatConfigs.recommended,
  },
  {
    // Every visible string is a translation key (issue #12: German complete): text in JSX, and the
    // attributes a person reads or hears. Tests and test harnesses may use plain text.
    files: ['**/*.tsx'],
    ignores: ['**/__tests__/**', '**/test-utils/**', '**/testing/**', '**/test/**', 'e2e/**'],
    plugins: { i18next },
    rules: {
      'i18next/no-literal-string': ['error', { mode: 'jsx-text-only' }],
      'no-restricted-syntax': [
        'error',
        {
          selector:
            'JSXAttribute[name.name=/^(aria-label|aria-description|aria-roledescription|aria-valuetext|title|alt|placeholder|label)$/] > Literal[value=/[A-Za-z]/]',
          message: 'A text people read or hear is a translation key: use t().',
        },
      ],
    },
  },
  {
    // Playwright fixtures call `use`, which is not React's hook.
    files: ['e2e/**'],
    rules: { 'react-hooks/rules-of-hooks': 'off' },
  },
  {
    files: ['**/__tests__/**'],
    rules: { 'import-x/no-restricted-paths': ['error', { zones: layerZones({ tests: true }) }] },
  },
  {
    files: ['**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['api/src/**'],
    rules: { 'import-x/no-restricted-paths': ['error', { zones: API_LAYER_ZONES }] },
  },
  {
    files: ['host/**', 'shared-ui/**', 'shared-auth/**'],
    rules: { 'no-restricted-imports': ['error', FACADE_ONLY] },
  },
  {
    // One config object for remotes: a later no-restricted-imports would replace, not extend, this.
    files: ['remote-*/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: FACADE_ONLY.paths,
          patterns: [
            ...FACADE_ONLY.patterns,
            { group: ['@portal/remote-*', '@portal/host', '../../remote-*', '../../host/*'] },
          ],
        },
      ],
    },
  },
  {
    // The facades themselves, and shared-auth's tests, which are never bundled and cannot reach
    // shared-ui (shared-auth does not depend on it; its LoginGate imports no router).
    files: [
      'shared-ui/src/router.ts',
      'shared-ui/src/router-testing.ts',
      'shared-ui/src/i18n/react-i18next.ts',
      'shared-ui/src/forms/**',
      'shared-auth/src/**/__tests__/**',
      'shared-auth/src/test-utils/**',
    ],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    // '@portal/shared-ui/widgets' is bundled into each app that uses it; a relative import of
    // shared-ui's main entry would bundle a second router or react-i18next with it.
    files: ['shared-ui/src/widgets/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: FACADE_ONLY.paths,
          patterns: [
            ...FACADE_ONLY.patterns,
            {
              group: ['../*'],
              message: "A widget reaches shared-ui's main entry through '@portal/shared-ui'.",
            },
          ],
        },
      ],
    },
  },
);

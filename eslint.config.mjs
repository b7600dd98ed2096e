import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import meshdx from './scripts/eslint/no-cycle.mjs';
import meshdxState from './scripts/eslint/no-module-state.mjs';
import meshdxTests from './scripts/eslint/no-test-imports.mjs';
import layers from './scripts/eslint/layers.mjs';
import meshdxRefs from './scripts/eslint/no-inline-ref.mjs';

// Import fences from docs/DESIGN.md: lib/ is pure (no server/, app/, components/, no I/O modules);
// components/ and cli/ never reach into server/; server/ never reaches into app/ or components/.
const serverImports = ['@/server/*', '@/server/**', '**/server/*', '**/server/**'];
const appImports = ['@/app/*', '@/app/**', '**/app/*', '**/app/**'];
const componentImports = [
  '@/components/*',
  '@/components/**',
  '**/components/*',
  '**/components/**',
];
const ioModules = [
  'fs',
  'node:fs',
  'fs/promises',
  'node:fs/promises',
  'net',
  'node:net',
  'http',
  'node:http',
  'https',
  'node:https',
  'child_process',
  'node:child_process',
  'better-sqlite3',
  '@kubernetes/client-node',
  'next',
  'react',
];

export default tseslint.config(
  {
    ignores: [
      'node_modules/**',
      '.next/**',
      'test-results/**',
      'playwright-report/**',
      'next-env.d.ts',
      'bench/results/**',
    ],
  },
  ...tseslint.configs.recommended,
  {
    // docs/DESIGN.md: no import cycles anywhere (one concept, one module, layered)
    files: ['**/*.ts', '**/*.tsx', '**/*.mjs'],
    plugins: { meshdx },
    rules: { 'meshdx/no-cycle': 'error' },
  },
  {
    // docs/DESIGN.md: all meshdx holds lives in its owner (the runtime), none in modules. server/sim
    // is a separate program with its own state; server/runtime is the owner.
    files: ['lib/**', 'server/**', 'app/**', 'components/**', 'cli/**'].flatMap((d) => [
      `${d}/*.ts`,
      `${d}/*.tsx`,
    ]),
    ignores: ['server/sim/**', 'server/runtime/**', '**/*.test.ts', '**/*.test.tsx'],
    plugins: { 'meshdx-state': meshdxState },
    rules: { 'meshdx-state/no-module-state': 'error' },
  },
  {
    // test data and test tools stay out of the product (tests/, test-support/)
    files: ['lib/**', 'server/**', 'app/**', 'components/**', 'cli/**'].flatMap((d) => [
      `${d}/*.ts`,
      `${d}/*.tsx`,
    ]),
    ignores: ['**/*.test.ts', '**/*.test.tsx'],
    plugins: { 'meshdx-tests': meshdxTests },
    rules: { 'meshdx-tests/no-test-imports': 'error' },
  },
  {
    // docs/DESIGN.md: server/'s folders depend one way (no folder imports one that imports it back)
    files: ['server/**/*.ts', 'server/**/*.tsx'],
    plugins: { layers },
    rules: { 'layers/no-folder-cycle': ['error', { root: 'server' }] },
  },
  {
    // docs/DESIGN.md: lib/ is the bottom layer; its tests may read shared test data
    files: ['lib/**/*.ts', 'lib/**/*.tsx'],
    ignores: ['lib/**/*.test.ts', 'lib/**/*.test.tsx'],
    plugins: { layers },
    rules: { 'layers/lib-imports-lib': ['error', { root: 'lib' }] },
  },
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
    },
  },
  {
    files: ['**/*.tsx'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
  {
    files: ['lib/**/*.ts'],
    ignores: ['lib/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: ioModules.map((name) => ({
            name,
            message: 'lib/ is pure: no I/O, no framework.',
          })),
          patterns: [
            {
              group: [...serverImports, ...appImports, ...componentImports],
              message: 'lib/ must not import server/, app/ or components/.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['components/**/*.ts', 'components/**/*.tsx'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: '@kubernetes/client-node', message: 'components/ render view models only.' },
          ],
          patterns: [{ group: serverImports, message: 'components/ must not import server/.' }],
        },
      ],
    },
  },
  {
    // docs/DESIGN.md: a view's requests are its components/<view>/api.ts (the GETs through
    // components/data/fetchJson.ts): no component asks the server on its own
    files: ['components/**/*.ts', 'components/**/*.tsx'],
    ignores: [
      'components/*/api.ts',
      'components/data/fetchJson.ts',
      '**/*.test.ts',
      '**/*.test.tsx',
    ],
    rules: {
      'no-restricted-globals': [
        'error',
        ...['fetch', 'EventSource', 'XMLHttpRequest', 'WebSocket'].map((name) => ({
          name,
          message: "a view's requests are in its api.ts (components/<view>/api.ts).",
        })),
      ],
    },
  },
  {
    // docs/DESIGN.md: the command line is thin over lib/; it reaches no server/ module (its
    // tests may build a history store with server/store to read, as the dashboard writes it)
    files: ['cli/**/*.ts', 'cli/**/*.tsx', 'cli/**/*.mjs'],
    ignores: ['cli/**/*.test.ts', 'cli/**/*.test.tsx'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              // a package's own server/ folder (the MCP SDK's) is no meshdx server/ module
              group: [...serverImports, '!@modelcontextprotocol/sdk/server/*'],
              message: 'cli/ must not import server/: it runs the lib/ analyses on files.',
            },
          ],
        },
      ],
    },
  },
  {
    // docs/DESIGN.md: server/ is below the edge: it never imports app/ (pages, routes) or
    // components/ (React). typescript-eslint's copy of the rule, so that the simulator's own
    // no-restricted-imports block below still applies to server/sim and this one too; type-only
    // imports are refused as well
    files: ['server/**/*.ts', 'server/**/*.tsx'],
    ignores: ['server/**/*.test.ts', 'server/**/*.test.tsx'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [...appImports, ...componentImports],
              message: 'server/ must not import app/ or components/.',
            },
          ],
        },
      ],
    },
  },
  {
    // docs/DESIGN.md: the simulator models Istio from its own code, so a test that compares meshdx's
    // prediction with the simulated proxies can fail. server/sim may use lib/kube (Kubernetes
    // object types, trimming, names: facts), lib/refs (wire formats) and lib's top-level
    // utilities, never the product's judgements (lib/dataplane: which pod has a proxy, which pod
    // ztunnel captures) nor its analysis (lib/scoping, lib/findings, lib/bloat, lib/timeline,
    // lib/proxies, lib/incidents, lib/ledger, lib/configdump, lib/protocol, lib/ambient, ...). Its
    // *.test.ts files are exempt: they are where a scenario is checked against what the product
    // reads from it.
    files: ['server/sim/**/*.ts'],
    ignores: ['server/sim/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                '**/lib/*/**',
                '@/lib/*/**',
                '!**/lib/kube/**',
                '!@/lib/kube/**',
                // the reference formats (ns/name, the Envoy node id) are wire formats, not analysis
                '!**/lib/refs/**',
                '!@/lib/refs/**',
              ],
              message:
                "server/sim plays istiod with its own model of Istio: import only lib/kube, lib/refs and lib/ utilities, never the product's judgements or analysis.",
            },
          ],
        },
      ],
    },
  },
  {
    // docs/DESIGN.md: a pod, workload, proxy or object reference, a service host, an Istio cluster
    // name and a finding subject key are formatted by lib/refs, never inline
    files: [
      'lib/**/*.ts',
      'components/**/*.ts',
      'components/**/*.tsx',
      'cli/**/*.ts',
      'server/**/*.ts',
      'app/**/*.ts',
      'app/**/*.tsx',
      'tests/**/*.ts',
      'e2e/**/*.ts',
      'bench/**/*.ts',
      'test-support/**/*.ts',
    ],
    ignores: ['lib/refs/**'],
    plugins: { 'meshdx-refs': meshdxRefs },
    rules: { 'meshdx-refs/no-inline-ref': 'error' },
  },
  {
    // the simulator prints Istio's wire formats (service hosts, cluster names) from its own model,
    // and tests write them as a proxy would, so that a wrong formatter fails them: there only the
    // `ns/name` keys are checked
    files: [
      'server/sim/**/*.ts',
      'tests/**/*.ts',
      'e2e/**/*.ts',
      'bench/**/*.ts',
      'test-support/**/*.ts',
      '**/*.test.ts',
      '**/*.test.tsx',
    ],
    ignores: ['lib/refs/**'],
    plugins: { 'meshdx-refs': meshdxRefs },
    rules: { 'meshdx-refs/no-inline-ref': ['error', { paths: true }] },
  },
);

/**
 * One Jest for the whole workspace, in native ESM mode (NestJS 12 is ESM-only; docs/operations.md, "Toolchain notes").
 */
const tsTransform = {
  '^.+\\.tsx?$': ['ts-jest', { useESM: true, tsconfig: '<rootDir>/tsconfig.jest.json' }],
};
const common = {
  rootDir: '.',
  extensionsToTreatAsEsm: ['.ts', '.tsx'],
  transform: tsTransform,
  testEnvironment: 'node',
  moduleNameMapper: {
    '^@wv/contracts$': '<rootDir>/libs/contracts/src/index.ts',
    '^@wv/broker$': '<rootDir>/broker/src/index.ts',
    '^@wv/simulator$': '<rootDir>/apps/simulator/src/index.ts',
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  modulePathIgnorePatterns: ['<rootDir>/.*/dist/'],
};

export default {
  // Jest reads the timeout from the global configuration only (a project's own is ignored). Long
  // tests (the fault suite, process restarts, floods) pass their own explicit timeouts.
  testTimeout: 60_000,
  projects: [
    {
      ...common,
      displayName: 'unit',
      testMatch: [
        '<rootDir>/libs/*/src/**/*.spec.ts',
        '<rootDir>/broker/{src,test}/**/*.spec.ts',
        '<rootDir>/apps/{api,simulator}/src/**/*.spec.ts',
        '<rootDir>/deploy/test/**/*.spec.ts',
        '<rootDir>/bench/test/**/*.spec.ts',
      ],
    },
    {
      // The web app's hooks, helpers and components (apps/web/src), in jsdom with Node's fetch lent to
      // it, so that the code under test talks to a real local HTTP server (apps/web/test/).
      ...common,
      displayName: 'web',
      testEnvironment: '<rootDir>/apps/web/test/jsdom-environment.js',
      testMatch: ['<rootDir>/apps/web/src/**/*.spec.{ts,tsx}'],
      moduleNameMapper: {
        // Vite defines import.meta.env, which the real config/env.ts reads; Jest does not.
        '^@/config/env$': '<rootDir>/apps/web/test/env.js',
        '^@/(.*)$': '<rootDir>/apps/web/src/$1',
        '\\.css$': '<rootDir>/apps/web/test/style-stub.js',
        // What a bundler does with engine.io-client's "browser" field, which Jest ignores: the browser's
        // WebSocket instead of the `ws` package (Socket.IO's client).
        '^(\\.{1,2}/(?:globals|polling-xhr|websocket))\\.node\\.js$': '$1.js',
        ...common.moduleNameMapper,
      },
    },
    {
      ...common,
      displayName: 'integration',
      testMatch: [
        '<rootDir>/apps/api/test/integration/**/*.integration-spec.ts',
        '<rootDir>/apps/simulator/test/**/*.integration-spec.ts',
      ],
      globalSetup: '<rootDir>/apps/api/test/support/global-setup.mjs',
      globalTeardown: '<rootDir>/apps/api/test/support/global-teardown.mjs',
    },
    {
      // The abuse-case suite (docs/security.md): the attacker's side of every trust boundary, played
      // against the real program, one folder per boundary.
      ...common,
      displayName: 'abuse',
      testMatch: ['<rootDir>/apps/api/test/abuse/**/*.abuse-spec.ts'],
      globalSetup: '<rootDir>/apps/api/test/support/global-setup.mjs',
      globalTeardown: '<rootDir>/apps/api/test/support/global-teardown.mjs',
    },
    {
      // The fault suite (apps/api/test/soak): its own PostgreSQL cluster, Redis and proxies, so it
      // needs no global setup. `npm run soak` runs it long; `npm test` runs a short seeded version.
      ...common,
      displayName: 'soak',
      testMatch: ['<rootDir>/apps/api/test/soak/**/*.soak-spec.ts'],
    },
    {
      ...common,
      displayName: 'e2e',
      testMatch: ['<rootDir>/apps/web/e2e/**/*.e2e-spec.ts'],
      globalSetup: '<rootDir>/apps/api/test/support/global-setup.mjs',
      globalTeardown: '<rootDir>/apps/api/test/support/global-teardown.mjs',
    },
  ],
};

// One jest run covers every workspace, as two projects: `unit` (each package's own tests, beside
// its code) and `e2e` (the cross-service suites in e2e/, `make up` itself and the docs site),
// which start whole systems: the compiled services, the web server or the built site, a browser.
// `make test-unit` runs the first alone; `scripts/run-tests.mjs` sums the results into the summary line.

/** npm packages published as ES modules only. */
const ESM_ONLY = ['kdbush', 'geokdbush', 'tinyqueue'];

const swc = (tsx) => [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', tsx },
      target: 'es2022',
      ...(tsx ? { transform: { react: { runtime: 'automatic' } } } : {}),
    },
    module: { type: 'commonjs' },
  },
];

const common = {
  testEnvironment: '<rootDir>/jest.node-environment.js',
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  // ESM-only packages (the worker's places component) are compiled to CommonJS like our sources: the
  // worker loads them with import(), which jest turns into require(), and jest on Node 20 cannot require() ESM.
  transformIgnorePatterns: [`/node_modules/(?!(${ESM_ONLY.join('|')})/)`],
  transform: {
    [`/node_modules/(${ESM_ONLY.join('|')})/.+\\.js$`]: [
      '@swc/jest',
      { jsc: { target: 'es2022' }, module: { type: 'commonjs' } },
    ],
    '^.+\\.ts$': swc(false),
    // The scripts' ES modules (scripts/eval) that their tests import.
    '^.+/scripts/.+\\.mjs$': ['@swc/jest', { jsc: { target: 'es2022' }, module: { type: 'commonjs' } }],
    // The web app's React components (web/): TSX with the automatic JSX runtime.
    '^.+\\.tsx$': swc(true),
  },
  moduleFileExtensions: ['ts', 'tsx', 'js', 'mjs', 'json'],
  // The web app: its components import their stylesheets (Vite bundles them; jest gets an empty module, also for `~/…css`),
  // and `~/…` is `web/app/…` (web/tsconfig.json paths).
  moduleNameMapper: { '\\.css$': '<rootDir>/web/app/styles/empty-module.cjs', '^~/(.*)$': '<rootDir>/web/app/$1' },
};

/** @type {import('jest').Config} */
module.exports = {
  testTimeout: 60000,
  maxWorkers: 2,
  // Integration suites start real processes; give them room to shut down cleanly.
  openHandlesTimeout: 5000,
  projects: [
    {
      ...common,
      displayName: 'unit',
      roots: [
        '<rootDir>/proto-events',
        '<rootDir>/openapi',
        '<rootDir>/services',
        '<rootDir>/cli',
        '<rootDir>/scripts',
        '<rootDir>/web',
        '<rootDir>/charts',
      ],
      testMatch: [
        '**/src/**/*.test.ts',
        '<rootDir>/scripts/**/*.test.ts',
        '<rootDir>/charts/tests/*.test.ts',
        '<rootDir>/web/{app,test}/**/*.test.{ts,tsx}',
      ],
      testPathIgnorePatterns: [...common.testPathIgnorePatterns, '<rootDir>/scripts/up.test.ts'],
    },
    {
      ...common,
      displayName: 'e2e',
      roots: ['<rootDir>/e2e', '<rootDir>/scripts', '<rootDir>/docs'],
      testMatch: ['<rootDir>/e2e/**/*.test.ts', '<rootDir>/scripts/up.test.ts', '<rootDir>/docs/test/**/*.test.ts'],
    },
  ],
};

// One jest run covers every workspace; `scripts/run-tests.mjs` sums the results into the summary line.
/** npm packages published as ES modules only. */
const ESM_ONLY = ['kdbush', 'geokdbush', 'tinyqueue'];

/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/proto-events', '<rootDir>/openapi', '<rootDir>/services', '<rootDir>/scripts', '<rootDir>/docs', '<rootDir>/web'],
  testMatch: ['**/src/**/*.test.ts', '<rootDir>/scripts/**/*.test.ts', '<rootDir>/docs/test/**/*.test.ts', '<rootDir>/web/{app,test}/**/*.test.{ts,tsx}'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  // ESM-only packages (the worker's places component) are compiled to CommonJS like our sources: the
  // worker loads them with import(), which jest turns into require(), and jest on Node 20 cannot require() ESM.
  transformIgnorePatterns: [`/node_modules/(?!(${ESM_ONLY.join('|')})/)`],
  transform: {
    [`/node_modules/(${ESM_ONLY.join('|')})/.+\\.js$`]: ['@swc/jest', { jsc: { target: 'es2022' }, module: { type: 'commonjs' } }],
    '^.+\\.ts$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } }],
    // The web app's React components (web/): TSX with the automatic JSX runtime.
    '^.+\\.tsx$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript', tsx: true }, transform: { react: { runtime: 'automatic' } }, target: 'es2022' }, module: { type: 'commonjs' } }],
  },
  moduleFileExtensions: ['ts', 'tsx', 'js', 'json'],
  // The web app: its components import their stylesheets (Vite bundles them; jest gets an empty module, also for `~/…css`),
  // and `~/…` is `web/app/…` (web/tsconfig.json paths).
  moduleNameMapper: { '\\.css$': '<rootDir>/web/app/styles/empty-module.cjs', '^~/(.*)$': '<rootDir>/web/app/$1' },
  testTimeout: 60000,
  maxWorkers: 2,
  // Integration suites start real processes; give them room to shut down cleanly.
  openHandlesTimeout: 5000,
};

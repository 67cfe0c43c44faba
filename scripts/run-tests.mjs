#!/usr/bin/env node
// Runs every jest suite once and ends with the one summary line the CI reads:
//   "N passed, N failed" (", N skipped" when some were skipped).
// Arguments go to jest: `--selectProjects unit` (make test-unit) or `e2e` (make test-e2e) runs one
// of the projects of jest.config.js.
// A suite that fails to load counts as one failed test, so it can never vanish from the total.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const out = '.test-results/jest.json';
mkdirSync('.test-results', { recursive: true });
rmSync(out, { force: true });

const jest = require.resolve('jest/bin/jest');
const run = spawnSync(process.execPath, [jest, '--json', `--outputFile=${out}`, ...process.argv.slice(2)], {
  stdio: 'inherit',
});

let passed = 0;
let failed = 0;
let skipped = 0;
try {
  const r = JSON.parse(readFileSync(out, 'utf8'));
  passed = r.numPassedTests;
  failed = r.numFailedTests + r.numRuntimeErrorTestSuites;
  skipped = r.numPendingTests + r.numTodoTests;
} catch {
  failed = 1; // jest itself did not finish
}
if (run.status !== 0 && failed === 0) failed = 1;
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 ? 1 : 0);

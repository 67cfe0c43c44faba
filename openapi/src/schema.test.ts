/**
 * The contract's TypeScript types are generated from openapi.yaml: this fails when the contract
 * changed and src/generated/schema.ts was not generated again (`npm run generate -w openapi`).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const PACKAGE = join(__dirname, '..');

it('src/generated/schema.ts is what openapi-typescript makes of openapi.yaml today', () => {
  const dir = mkdtempSync(join(tmpdir(), 'trove-schema-'));
  try {
    const out = join(dir, 'schema.ts');
    const pkg = JSON.parse(readFileSync(join(PACKAGE, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    // The same command as the generate script, written to a temporary file.
    const args = pkg.scripts.generate
      .replace(/^openapi-typescript /, '')
      .replace('-o src/generated/schema.ts', `-o ${out}`)
      .split(' ');
    execFileSync(
      process.execPath,
      [join(dirname(require.resolve('openapi-typescript')), '..', 'bin', 'cli.js'), ...args],
      { cwd: PACKAGE, stdio: 'pipe' },
    );
    const fresh = readFileSync(out, 'utf8');
    const committed = readFileSync(join(PACKAGE, 'src', 'generated', 'schema.ts'), 'utf8');
    if (fresh !== committed)
      throw new Error('openapi/src/generated/schema.ts is stale: run `npm run generate -w openapi`');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

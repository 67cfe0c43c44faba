/**
 * The API types are generated from openapi/openapi.yaml: this fails when the contract changed and
 * app/api/schema.d.ts was not generated again (`npm run generate:api -w web`).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const WEB = join(__dirname, '..', '..');

it('app/api/schema.d.ts is what openapi-typescript makes of openapi.yaml today', () => {
  const dir = mkdtempSync(join(tmpdir(), 'trove-schema-'));
  try {
    const out = join(dir, 'schema.d.ts');
    const pkg = JSON.parse(readFileSync(join(WEB, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    // The same command as the generate:api script, written to a temporary file.
    const args = pkg.scripts['generate:api'].replace(/^openapi-typescript /, '').replace('-o app/api/schema.d.ts', `-o ${out}`).split(' ');
    execFileSync(process.execPath, [join(dirname(require.resolve('openapi-typescript')), '..', 'bin', 'cli.js'), ...args], { cwd: WEB, stdio: 'pipe' });
    const fresh = readFileSync(out, 'utf8');
    const committed = readFileSync(join(WEB, 'app', 'api', 'schema.d.ts'), 'utf8');
    if (fresh !== committed) throw new Error('web/app/api/schema.d.ts is stale: run `npm run generate:api -w web`');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

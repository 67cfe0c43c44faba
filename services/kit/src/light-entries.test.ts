import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const REPO_ROOT = join(__dirname, '..', '..', '..');

/** What a process loads when it requires `specifier` by name, as the web server does. */
function modulesLoadedBy(specifier: string): string[] {
  const script = `require(${JSON.stringify(specifier)}); console.log(JSON.stringify(Object.keys(require.cache)));`;
  const out = spawnSync(process.execPath, ['-e', script], { cwd: REPO_ROOT, encoding: 'utf8' });
  if (out.status !== 0) throw new Error(`node could not require ${specifier}:\n${out.stderr}`);
  return JSON.parse(out.stdout) as string[];
}

// The web server and small tools take these without the NATS client, the document and blob store
// drivers, or the OpenTelemetry SDK that the full kit brings.
describe.each(['@trove/kit/config', '@trove/kit/log', '@trove/kit/secrets'])('%s', (specifier) => {
  it('loads nothing heavy', () => {
    const loaded = modulesLoadedBy(specifier);
    expect(loaded.length).toBeGreaterThan(0);
    const heavy = loaded.filter((file) =>
      /node_modules[\\/](nats|mongoose|mongodb|@aws-sdk|@seald-io|@opentelemetry[\\/]sdk-node)[\\/]/.test(file),
    );
    expect(heavy).toEqual([]);
    expect(loaded).not.toContain(join(REPO_ROOT, 'services', 'kit', 'dist', 'index.js'));
  });
});

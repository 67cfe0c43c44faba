/**
 * The README stays the short version for newcomers, and what it no longer holds is complete in the
 * docs: every variable the code reads on the Configuration page, every figure the benchmarks print
 * on the Benchmarks page. Reads files only (no build), so it runs in a second.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const REPO_ROOT = path.resolve(__dirname, '../..');
const read = (rel: string): string => readFileSync(path.join(REPO_ROOT, rel), 'utf8');
const tracked = (): string[] =>
  execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { cwd: REPO_ROOT, encoding: 'utf8' })
    .split('\n')
    .filter(Boolean);

describe('README.md', () => {
  const readme = read('README.md');

  it('is at most 300 lines', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(300);
  });

  it('gives the two commands near the top', () => {
    const top = readme.split('\n').slice(0, 40).join('\n');
    expect(top).toMatch(/^make up\b/m);
    expect(top).toMatch(/^make test\b/m);
  });

  it('draws the architecture and points to the configuration and benchmarks pages', () => {
    expect(readme).toContain('```mermaid');
    expect(readme).toContain('(docs/docs/user-guide/configuration.md)');
    expect(readme).toContain('(docs/docs/dev-guide/benchmarks.md)');
  });

  it('links only to files that exist', () => {
    const targets = [...readme.matchAll(/\]\(([^)#\s]+)(#[^)]*)?\)/g)]
      .map((m) => m[1])
      .filter((t) => !/^[a-z]+:/i.test(t));
    expect(targets.length).toBeGreaterThan(5);
    const files = new Set(tracked());
    expect(targets.filter((t) => !files.has(t) && !files.has(t.replace(/\/$/, '') + '/README.md'))).toEqual([]);
  });

  it('is not a source of the docs site (no page imports a section of it)', () => {
    const pages = tracked().filter((f) => f.startsWith('docs/docs/') || f.startsWith('docs/plugins/'));
    for (const f of pages)
      expect({ f, imports: /readme-[a-z-]+\.md|join\([^)]*'README\.md'\)/.test(read(f)) }).toEqual({
        f,
        imports: false,
      });
  });
});

describe('the Configuration page', () => {
  /** JetStream streams and buckets: names that share the prefix but are not variables. */
  const NOT_VARIABLES = new Set(['TROVE_EVENTS', 'TROVE_WORK', 'TROVE_DLQ', 'TROVE_REVOCATIONS', 'TROVE_CRASH_LEDGER']);

  it('lists every TROVE_ variable the code reads', () => {
    const page = read('docs/docs/user-guide/configuration.md');
    const documented = new Set(page.match(/TROVE_[A-Z0-9_]+/g));
    const sources = tracked().filter(
      (f) =>
        /\.(ts|tsx|mjs|cjs|js|sh|ya?ml|tpl)$|(^|\/)(Makefile|Dockerfile)$/.test(f) &&
        !/\.test\.tsx?$/.test(f) &&
        !f.startsWith('docs/test/'),
    );
    const used = new Set<string>();
    for (const f of sources)
      for (const m of read(f).matchAll(/\bTROVE_[A-Z0-9_]*[A-Z0-9]\b/g)) if (!NOT_VARIABLES.has(m[0])) used.add(m[0]);
    expect(used.size).toBeGreaterThan(80);
    expect([...used].filter((v) => !documented.has(v)).sort()).toEqual([]);
  });

  it('is in the sidebar, with the Benchmarks page', () => {
    const sidebars = read('docs/sidebars.ts');
    expect(sidebars).toContain("'user-guide/configuration'");
    expect(sidebars).toContain("'dev-guide/benchmarks'");
  });
});

describe('the Benchmarks page', () => {
  it('has a measured figure for every ratio the benchmarks print, and says on what machine', () => {
    const page = read('docs/docs/dev-guide/benchmarks.md');
    const names = new Set<string>();
    for (const f of tracked().filter((x) => /^scripts\/bench-[a-z]+\.mjs$/.test(x))) {
      const src = read(f);
      for (const m of src.matchAll(/ratio\('([a-z0-9_]+)'/g)) names.add(m[1]);
      // the library and search benchmarks name the library's size: `…_at_${at}`, 100k by default
      for (const m of src.matchAll(/`ratio ([a-z0-9_]+?)(\$\{at\})? /g)) names.add(m[2] ? `${m[1]}100k` : m[1]);
    }
    expect(names.size).toBeGreaterThan(20);
    expect([...names].filter((n) => !page.includes(n)).sort()).toEqual([]);
    expect(page).toContain('2 vCPUs (AMD EPYC), 24 GiB RAM');
  });
});

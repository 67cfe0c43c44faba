/**
 * scripts/audit.mjs judging saved `npm audit --json` answers (`--report`): the shapes npm 10 writes, the
 * registry's refusal included. The real audit runs in CI (`node scripts/audit.mjs --require`).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const SCRIPT = join(__dirname, 'audit.mjs');
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'trove-audit-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let seq = 0;
function audit(answer: unknown, args: string[] = []): { status: number | null; out: string } {
  const file = join(dir, `report-${++seq}.json`);
  writeFileSync(file, typeof answer === 'string' ? answer : JSON.stringify(answer));
  const run = spawnSync(process.execPath, [SCRIPT, '--report', file, ...args], { encoding: 'utf8' });
  return { status: run.status, out: run.stdout + run.stderr };
}

const advisory = (id: string, name: string, severity: string, title = 'a flaw') => ({
  source: 1,
  name,
  dependency: name,
  title,
  url: `https://github.com/advisories/${id}`,
  severity,
  cwe: [],
  cvss: {},
  range: '<9.9.9',
});
const report = (...vias: ReturnType<typeof advisory>[]) => {
  const vulnerabilities: Record<string, unknown> = {};
  for (const v of vias) {
    const entry = (vulnerabilities[v.name] ??= {
      name: v.name,
      severity: v.severity,
      isDirect: false,
      via: [],
      effects: [],
      range: v.range,
      nodes: [],
      fixAvailable: false,
    }) as { via: unknown[] };
    entry.via.push(v);
  }
  // A package affected only through another one, as npm lists it.
  vulnerabilities['@docusaurus/core'] = {
    name: '@docusaurus/core',
    severity: 'moderate',
    via: ['webpack'],
    effects: [],
    range: '*',
    nodes: [],
    fixAvailable: false,
  };
  return { auditReportVersion: 2, vulnerabilities, metadata: {} };
};
const WEBPACK_DOCS = [
  advisory('GHSA-4vvj-4cpr-p986', 'webpack', 'moderate'),
  advisory('GHSA-38r7-794h-5758', 'webpack', 'low'),
  advisory('GHSA-8fgc-7cc6-rx7x', 'webpack', 'low'),
];

describe('scripts/audit.mjs', () => {
  it('passes with only the allow-listed docs webpack advisories, each shown with its reason', () => {
    const { status, out } = audit(report(...WEBPACK_DOCS));
    expect(status).toBe(0);
    expect(out).toMatch(/allowed {2}GHSA-4vvj-4cpr-p986 webpack \(moderate\): docs only/);
    expect(out).toMatch(/dependency audit: 3 advisories, 3 allowed, 0 failing at moderate or above/);
  });

  it('fails on any other advisory at moderate or above, naming it', () => {
    const { status, out } = audit(
      report(...WEBPACK_DOCS, advisory('GHSA-pxg6-pf52-xh8x', 'cookie', 'high', 'cookie accepts bad names')),
    );
    expect(status).toBe(1);
    expect(out).toMatch(/FAILING {2}GHSA-pxg6-pf52-xh8x cookie <9\.9\.9 \(high\): cookie accepts bad names/);
  });

  it('allows an advisory only for the package it names', () => {
    const { status } = audit(report(advisory('GHSA-4vvj-4cpr-p986', 'webpack-like', 'moderate')));
    expect(status).toBe(1);
  });

  it('lists advisories below the level without failing, and follows --level', () => {
    expect(audit(report(advisory('GHSA-2222-3333-4444', 'tiny', 'low')))).toMatchObject({
      status: 0,
      out: expect.stringMatching(/below moderate {2}GHSA-2222-3333-4444 tiny/),
    });
    expect(audit(report(advisory('GHSA-2222-3333-4444', 'tiny', 'low')), ['--level', 'low']).status).toBe(1);
  });

  it('names allow-list entries no longer reported, to prune them', () => {
    const { status, out } = audit(report(WEBPACK_DOCS[0]));
    expect(status).toBe(0);
    expect(out).toMatch(/allow-list entry GHSA-38r7-794h-5758 \(webpack\) is no longer reported: remove it/);
  });

  it('says SKIPPED when the registry refuses the audit, and fails then only with --require', () => {
    const refusal = {
      message: '405 Method Not Allowed - POST https://registry.npmjs.org/-/npm/v1/security/advisories/bulk',
      method: 'POST',
      statusCode: 405,
      body: '',
      error: { summary: '', detail: '' },
    };
    expect(audit(refusal)).toEqual({
      status: 0,
      out: expect.stringMatching(/^dependency audit SKIPPED: .* refused the audit \(405 Method Not Allowed/),
    });
    expect(audit(refusal, ['--require'])).toEqual({
      status: 1,
      out: expect.stringMatching(/SKIPPED.*--require: failing/),
    });
    expect(audit('npm ERR! no JSON at all').out).toMatch(/SKIPPED/);
  });

  it('refuses an allow-list entry without its reason', () => {
    const list = join(dir, 'bad-list.json');
    writeFileSync(
      list,
      JSON.stringify({ advisories: [{ id: 'GHSA-4vvj-4cpr-p986', package: 'webpack', reason: '' }] }),
    );
    const { status, out } = audit(report(...WEBPACK_DOCS), ['--allow-list', list]);
    expect(status).toBe(2);
    expect(out).toMatch(/GHSA-4vvj-4cpr-p986 needs its reason/);
  });
});

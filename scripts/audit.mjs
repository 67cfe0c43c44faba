#!/usr/bin/env node
// @ts-check
/**
 * The dependency audit (`make audit`, and a job of CI): `npm audit --json` over the whole lockfile, every
 * advisory judged against scripts/audit-allowlist.json, where each accepted advisory names its package and
 * the reason it does not reach Trove's users. Fails (exit 1) on any other advisory at `--level` or above
 * (moderate by default); lower ones are listed. Allow-list entries no longer reported are named, to prune.
 *
 * Some registries (mirrors, the one of this build machine) refuse the audit endpoint: then the audit is
 * SKIPPED, said so on its own line, exit 0 — unless `--require` (CI, against registry.npmjs.org), where a
 * skipped audit fails. `--report <file>` judges a saved `npm audit --json` answer instead of calling npm.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const LEVELS = ['info', 'low', 'moderate', 'high', 'critical'];
const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** @param {string[]} argv */
function parseArgs(argv) {
  const opts = {
    require: false,
    level: 'moderate',
    report: /** @type {string | undefined} */ (undefined),
    allowList: join(root, 'scripts', 'audit-allowlist.json'),
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--require') opts.require = true;
    else if (a === '--level') opts.level = argv[++i];
    else if (a === '--report') opts.report = argv[++i];
    else if (a === '--allow-list') opts.allowList = argv[++i];
    else
      fail(
        `unknown argument ${a} (known: --require, --level <${LEVELS.join('|')}>, --report <file>, --allow-list <file>)`,
      );
  }
  if (!LEVELS.includes(opts.level)) fail(`--level must be one of ${LEVELS.join(', ')}`);
  return opts;
}

/** @param {string} message @returns {never} */
function fail(message) {
  process.stderr.write(`audit: ${message}\n`);
  process.exit(2);
}

/**
 * @typedef {{ id: string, package: string, reason: string }} Allowed
 * @param {string} file @returns {Allowed[]}
 */
function readAllowList(file) {
  const parsed = JSON.parse(readFileSync(file, 'utf8'));
  const entries = Array.isArray(parsed.advisories)
    ? parsed.advisories
    : fail(`${file}: expected {"advisories": [...]}`);
  for (const e of entries) {
    if (!/^GHSA(-[23456789cfghjmpqrvwx]{4}){3}$/.test(String(e.id)))
      fail(`${file}: ${JSON.stringify(e.id)} is not a GHSA id`);
    if (typeof e.package !== 'string' || !e.package) fail(`${file}: ${e.id} names no package`);
    if (typeof e.reason !== 'string' || e.reason.trim().length < 20)
      fail(`${file}: ${e.id} needs its reason (why it does not reach Trove's users)`);
  }
  return entries;
}

/** `npm audit --json`'s answer, or why there is none. */
function runNpmAudit() {
  const run = spawnSync('npm', ['audit', '--json'], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    timeout: 300_000,
  });
  if (run.error) return { refused: `npm could not run: ${run.error.message}` };
  return parseAnswer(run.stdout, run.stderr);
}

/** @param {string} stdout @param {string} [stderr] */
function parseAnswer(stdout, stderr = '') {
  /** @type {any} */
  let answer;
  try {
    answer = JSON.parse(stdout);
  } catch {
    return { refused: `npm answered no audit report: ${(stderr || stdout).trim().split('\n')[0] || 'no output'}` };
  }
  if (!answer || typeof answer.vulnerabilities !== 'object') {
    // The registry's refusal, as npm passes it on (e.g. 405 Method Not Allowed on …/advisories/bulk).
    const why = answer?.message ?? answer?.error?.summary ?? JSON.stringify(answer).slice(0, 200);
    return { refused: String(why) };
  }
  return { report: answer };
}

/**
 * Every advisory of the report, once (npm lists one under each package it affects).
 * @param {any} report
 */
function advisoriesOf(report) {
  /** @type {Map<string, { id: string, package: string, severity: string, title: string, url: string, range: string }>} */
  const found = new Map();
  for (const v of Object.values(report.vulnerabilities ?? {})) {
    for (const via of /** @type {any} */ (v).via ?? []) {
      if (typeof via !== 'object' || !via) continue;
      const id =
        String(via.url ?? '')
          .split('/')
          .pop() || `npm-${via.source}`;
      found.set(`${id} ${via.name}`, {
        id,
        package: via.name,
        severity: via.severity,
        title: via.title,
        url: via.url,
        range: via.range,
      });
    }
  }
  return [...found.values()].sort(
    (a, b) => LEVELS.indexOf(b.severity) - LEVELS.indexOf(a.severity) || a.id.localeCompare(b.id),
  );
}

const opts = parseArgs(process.argv.slice(2));
const allowed = readAllowList(opts.allowList);
const registry = spawnSync('npm', ['config', 'get', 'registry'], { encoding: 'utf8' }).stdout?.trim() || 'the registry';
const outcome = opts.report ? parseAnswer(readFileSync(opts.report, 'utf8')) : runNpmAudit();

if ('refused' in outcome) {
  console.log(
    `dependency audit SKIPPED: ${registry} refused the audit (${outcome.refused})${opts.require ? '; --require: failing' : ''}`,
  );
  process.exit(opts.require ? 1 : 0);
}

const advisories = advisoriesOf(outcome.report);
const threshold = LEVELS.indexOf(opts.level);
const failing = [];
const seenAllowed = new Set();
for (const a of advisories) {
  const allowance = allowed.find((e) => e.id === a.id && e.package === a.package);
  if (allowance) {
    seenAllowed.add(allowance.id);
    console.log(`  allowed  ${a.id} ${a.package} (${a.severity}): ${allowance.reason}`);
  } else if (LEVELS.indexOf(a.severity) >= threshold) {
    failing.push(a);
    console.log(`  FAILING  ${a.id} ${a.package} ${a.range} (${a.severity}): ${a.title} ${a.url}`);
  } else {
    console.log(`  below ${opts.level}  ${a.id} ${a.package} ${a.range} (${a.severity}): ${a.title} ${a.url}`);
  }
}
for (const e of allowed)
  if (!seenAllowed.has(e.id)) console.log(`  allow-list entry ${e.id} (${e.package}) is no longer reported: remove it`);
console.log(
  `dependency audit: ${advisories.length} advisories, ${seenAllowed.size} allowed, ${failing.length} failing at ${opts.level} or above`,
);
process.exit(failing.length ? 1 : 0);

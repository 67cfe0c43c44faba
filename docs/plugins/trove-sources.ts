/**
 * Reads the repository at build time so the docs describe Trove as it is, not as it was when a page
 * was written:
 *
 * - API operations from `openapi/openapi.yaml` (the same file the gateway validates against), checked
 *   against the operations the gateway's route table serves (`services/gateway/src/routes/
 *   served-operations.json`, generated from the table by its test) — `<ApiCalls>` and
 *   `<FeatureStatus>` render them;
 * - the repository tree (`git ls-files`), checked against the descriptions in `repo-layout.ts` —
 *   `<RepoTree>` renders it;
 * - a Markdown partial under `docs/_generated/` (git-ignored) copied from `proto-events/CATALOGUE.md`,
 *   imported by the design document (`.md` files are CommonMark, not MDX, so it needs no escaping).
 *   The docs do not depend on README.md: what it once held in detail lives in the pages themselves.
 *
 * It also keeps the API reference free of third-party requests (see redoc-no-cdn-loader.cjs).
 *
 * Anything that no longer matches (an undescribed top-level folder, an operation the gateway does not
 * serve, an unknown operation id in a page) fails the build with a message saying what to fix.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import yaml from 'js-yaml';
import type { LoadContext, Plugin } from '@docusaurus/types';
import { FILES, FOLDERS } from './repo-layout';

export type HttpMethod = 'get' | 'put' | 'post' | 'patch' | 'delete';

export interface ApiOperation {
  operationId: string;
  method: HttpMethod;
  path: string;
  summary: string;
  tags: string[];
  /** Security schemes accepted (`bearerAuth`, `basicAuth`, `signedUrl`); empty: no authentication. */
  auth: string[];
}

export interface TreeEntry {
  /** Repository-relative path with `/` separators. */
  path: string;
  kind: 'dir' | 'file';
  description?: string;
  /** The npm workspace name when this folder is one. */
  workspace?: string;
}

/** One row of a table of proto-events/CATALOGUE.md. */
export interface NatsSubject {
  subject: string;
  kind: 'rpc' | 'event' | 'work';
  /** rpc: the answering service; event/work: the publishers. */
  from: string[];
  /** rpc: the callers; event/work: the consumers. */
  to: string[];
}

export interface TroveSourcesData {
  apiVersion: string;
  subjects: NatsSubject[];
  operations: Record<string, ApiOperation>;
  tags: string[];
  tree: TreeEntry[];
  workspaces: { dir: string; name: string }[];
  repoUrl: string;
}

export interface TroveSourcesOptions {
  /** Repository root (the folder holding the root package.json). */
  repoRoot: string;
  /** Where the source is browsed, for links to files (`<repoUrl>/blob/main/<path>`). */
  repoUrl: string;
}

const METHODS: HttpMethod[] = ['get', 'put', 'post', 'patch', 'delete'];
/** Never part of the tree even when git is not there to apply .gitignore. */
const IGNORED = new Set([
  'node_modules',
  '.git',
  'dist',
  'build',
  '.docusaurus',
  'data',
  'artifacts',
  '.test-results',
  'coverage',
  '.build',
  '_generated',
]);

interface OpenApiDoc {
  info?: { version?: string };
  security?: Record<string, unknown>[];
  tags?: { name: string }[];
  paths?: Record<
    string,
    Partial<
      Record<
        HttpMethod,
        { operationId?: string; summary?: string; tags?: string[]; security?: Record<string, unknown>[] }
      >
    >
  >;
}

export function loadOperations(openapiFile: string): {
  apiVersion: string;
  operations: Record<string, ApiOperation>;
  tags: string[];
} {
  const doc = yaml.load(readFileSync(openapiFile, 'utf8')) as OpenApiDoc;
  const operations: Record<string, ApiOperation> = {};
  for (const [p, item] of Object.entries(doc.paths ?? {})) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op?.operationId) continue;
      const security = op.security ?? doc.security ?? [];
      operations[op.operationId] = {
        operationId: op.operationId,
        method,
        path: p,
        summary: op.summary ?? '',
        tags: op.tags ?? [],
        auth: [...new Set(security.flatMap((s) => Object.keys(s)))],
      };
    }
  }
  return { apiVersion: String(doc.info?.version ?? ''), operations, tags: (doc.tags ?? []).map((t) => t.name) };
}

/**
 * The operationIds the gateway serves, from the file its route-table test generates from the route
 * table (`services/gateway/src/routes/served-operations.json`).
 */
export function loadServedOperations(servedFile: string): Set<string> {
  const { operationIds } = JSON.parse(readFileSync(servedFile, 'utf8')) as { operationIds: string[] };
  return new Set(operationIds);
}

/** Where the contract and the gateway's routes disagree: every operation must be served, and only those. */
export function unservedOperations(operations: Record<string, ApiOperation>, served: Set<string>): string[] {
  const problems: string[] = [];
  for (const id of Object.keys(operations))
    if (!served.has(id))
      problems.push(
        `operation "${id}" of openapi/openapi.yaml has no gateway route (services/gateway/src/routes/served-operations.json)`,
      );
  for (const id of served)
    if (!operations[id])
      problems.push(`served-operations.json names "${id}", which openapi/openapi.yaml does not declare`);
  return problems;
}

/** The npm workspaces of the root package.json (plain folders and `folder/*` patterns). */
export function loadWorkspaces(repoRoot: string): { dir: string; name: string }[] {
  const pkg = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { workspaces?: string[] };
  const dirs: string[] = [];
  for (const w of pkg.workspaces ?? []) {
    if (w.endsWith('/*')) {
      const parent = w.slice(0, -2);
      const abs = path.join(repoRoot, parent);
      if (existsSync(abs))
        for (const d of readdirSync(abs).sort())
          if (existsSync(path.join(abs, d, 'package.json'))) dirs.push(`${parent}/${d}`);
    } else dirs.push(w.replace(/\/$/, ''));
  }
  return dirs
    .filter((d) => existsSync(path.join(repoRoot, d, 'package.json')))
    .map((dir) => ({
      dir,
      name: (JSON.parse(readFileSync(path.join(repoRoot, dir, 'package.json'), 'utf8')) as { name: string }).name,
    }));
}

/** Every file of the repository: tracked and untracked-but-not-ignored (git), or a filtered walk. */
export function listRepoFiles(repoRoot: string): string[] {
  try {
    const out = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], {
      cwd: repoRoot,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const files = out
      .split('\0')
      .filter((f) => f && !f.split('/').some((seg) => IGNORED.has(seg)) && existsSync(path.join(repoRoot, f)));
    if (files.length > 0) return files;
  } catch {
    // not a git checkout (e.g. an exported tarball): walk the folders instead
  }
  const files: string[] = [];
  const walk = (rel: string): void => {
    for (const name of readdirSync(path.join(repoRoot, rel))) {
      if (IGNORED.has(name)) continue;
      const r = rel ? `${rel}/${name}` : name;
      if (statSync(path.join(repoRoot, r)).isDirectory()) walk(r);
      else files.push(r);
    }
  };
  walk('');
  return files;
}

/**
 * The tree the folder-structure page shows: every top-level folder and file, every workspace with
 * its direct sub-folders and the sub-folders of its `src/`, and every described folder.
 */
export function buildTree(files: string[], workspaces: { dir: string; name: string }[]): TreeEntry[] {
  const dirs = new Set<string>();
  for (const f of files) {
    const parts = f.split('/');
    for (let i = 1; i < parts.length; i++) dirs.add(parts.slice(0, i).join('/'));
  }
  const wsByDir = new Map(workspaces.map((w) => [w.dir, w.name]));
  const shown = new Set<string>();
  const show = (d: string): void => {
    // a shown folder brings its parents, so the tree has no gaps
    const parts = d.split('/');
    for (let i = 1; i <= parts.length; i++) shown.add(parts.slice(0, i).join('/'));
  };
  for (const d of dirs) {
    const depth = d.split('/').length;
    if (depth === 1 || wsByDir.has(d) || FOLDERS[d] !== undefined) show(d);
    for (const ws of wsByDir.keys()) {
      if (path.posix.dirname(d) === ws || path.posix.dirname(d) === `${ws}/src`) show(d);
    }
  }
  const entries: TreeEntry[] = [...shown].map((d) => ({
    path: d,
    kind: 'dir' as const,
    description: FOLDERS[d],
    workspace: wsByDir.get(d),
  }));
  for (const f of files) if (!f.includes('/')) entries.push({ path: f, kind: 'file', description: FILES[f] });
  // folders first at each level, then files, alphabetical (case-insensitive)
  const key = (e: TreeEntry): string =>
    e.path
      .split('/')
      .map((seg, i, all) => `${i === all.length - 1 && e.kind === 'file' ? '1' : '0'}${seg.toLowerCase()}`)
      .join('/');
  return entries.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

/** What the tree lacks to be fully described: top-level folders and workspaces without a description. */
export function undescribed(tree: TreeEntry[]): string[] {
  return tree
    .filter((e) => e.kind === 'dir' && !e.description && (!e.path.includes('/') || e.workspace))
    .map((e) => e.path);
}

/**
 * The subjects of the catalogue's three tables (request/reply, events, work queues), read from the
 * Markdown proto-events generates: who answers or publishes each, who calls or consumes it.
 */
export function parseCatalogue(md: string): NatsSubject[] {
  const out: NatsSubject[] = [];
  let kind: NatsSubject['kind'] | undefined;
  const names = (cell: string): string[] =>
    cell
      .split(',')
      // "worker (bus dead-letter)" → "worker"
      .map((s) => s.replace(/\([^)]*\)/g, '').trim())
      .filter(Boolean);
  for (const line of md.split('\n')) {
    if (line.startsWith('## ')) {
      const h = line.toLowerCase();
      kind = h.includes('request/reply')
        ? 'rpc'
        : h.includes('events')
          ? 'event'
          : h.includes('work queue')
            ? 'work'
            : undefined;
      continue;
    }
    const m = /^\| `([^`]+)` \|([^|]*)\|([^|]*)\|/.exec(line);
    if (kind && m) out.push({ subject: m[1], kind, from: names(m[2]), to: names(m[3]) });
  }
  return out;
}

/**
 * Makes a Markdown file from elsewhere in the repository safe to import into a page: relative links
 * become links to the file in the source repository, same-file anchors point at the file there too,
 * and headings go `levels` deeper.
 */
export function adaptMarkdown(md: string, sourceFile: string, repoUrl: string, levels: number): string {
  const dir = path.posix.dirname(sourceFile);
  const fence = /^(```|~~~)/;
  let inFence = false;
  return md
    .split('\n')
    .map((line) => {
      if (fence.test(line.trim())) inFence = !inFence;
      if (inFence) return line;
      let l = line.replace(/\]\(([^)\s]+)\)/g, (all, target: string) => {
        if (/^[a-z]+:/i.test(target) || target.startsWith('/')) return all;
        if (target.startsWith('#')) return `](${repoUrl}/blob/main/${sourceFile}${target})`;
        return `](${repoUrl}/blob/main/${path.posix.normalize(path.posix.join(dir, target))})`;
      });
      if (levels > 0 && /^#{1,5} /.test(l)) l = `${'#'.repeat(levels)}${l}`;
      return l;
    })
    .join('\n');
}

function writeIfChanged(file: string, content: string): void {
  if (existsSync(file) && readFileSync(file, 'utf8') === content) return;
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
}

const GENERATED_NOTE = (source: string): string =>
  `<!-- Generated at build time by docs/plugins/trove-sources.ts from ${source}. Do not edit: edit the source. -->\n\n`;

export default function troveSources(context: LoadContext, options: unknown): Plugin<TroveSourcesData> {
  const { repoRoot, repoUrl } = options as TroveSourcesOptions;
  const openapiFile = path.join(repoRoot, 'openapi/openapi.yaml');
  const catalogueFile = path.join(repoRoot, 'proto-events/CATALOGUE.md');
  const servedFile = path.join(repoRoot, 'services/gateway/src/routes/served-operations.json');
  const generatedDir = path.join(context.siteDir, 'docs/_generated');

  return {
    name: 'trove-sources',

    getPathsToWatch() {
      return [
        openapiFile,
        catalogueFile,
        path.join(repoRoot, 'package.json'),
        servedFile,
        path.join(context.siteDir, 'plugins/*.ts'),
      ];
    },

    async loadContent() {
      const problems: string[] = [];

      // NATS subjects: the catalogue proto-events generates, one level deeper (it becomes a section).
      // Its title and "Generated by" line are left out: the page introduces it.
      const catalogueMd = readFileSync(catalogueFile, 'utf8');
      const subjects = parseCatalogue(catalogueMd);
      const catalogue = catalogueMd.replace(/^# .*\n+/, '').replace(/^Generated by [^\n]*(\n[^\n]+)*\n+/, '');
      writeIfChanged(
        path.join(generatedDir, 'nats-catalogue.md'),
        GENERATED_NOTE('proto-events/CATALOGUE.md') + adaptMarkdown(catalogue, 'proto-events/CATALOGUE.md', repoUrl, 1),
      );

      const { apiVersion, operations, tags } = loadOperations(openapiFile);
      problems.push(...unservedOperations(operations, loadServedOperations(servedFile)));
      const workspaces = loadWorkspaces(repoRoot);
      const tree = buildTree(listRepoFiles(repoRoot), workspaces);
      for (const p of undescribed(tree))
        problems.push(`folder "${p}" has no description: add it to FOLDERS in docs/plugins/repo-layout.ts`);

      if (problems.length > 0)
        throw new Error(`trove-sources: the docs no longer match the repository:\n  - ${problems.join('\n  - ')}`);
      return { apiVersion, subjects, operations, tags, tree, workspaces, repoUrl };
    },

    async contentLoaded({ content, actions }) {
      actions.setGlobalData(content);
    },

    configureWebpack() {
      // no request to a third party from the API reference (see the loader)
      return {
        module: {
          rules: [
            {
              test: /[\\/]redoc[\\/]bundles[\\/]redoc(\.browser)?\.lib\.js$/,
              use: [{ loader: path.join(__dirname, 'redoc-no-cdn-loader.cjs') }],
            },
          ],
        },
      };
    },
  };
}

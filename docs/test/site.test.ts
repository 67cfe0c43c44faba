/**
 * The documentation site, end to end: builds it with Docusaurus (a broken link fails the build, and
 * so this suite), serves docs/build on a loopback port with a small static server that behaves like
 * a typical host (files as they are, folders through their index.html, 404.html for the rest), and
 * checks it in headless Chromium (Debian's, through playwright-core). Screenshots of the home page
 * and the API reference are saved under artifacts/docs/.
 */
import { execFileSync, spawn } from 'node:child_process';
import { createReadStream, existsSync, mkdirSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { chromiumArgs, requireChromium } from '@trove/kit/testing';
import type { Browser, BrowserContext, Page } from 'playwright-core';

const SITE_DIR = path.resolve(__dirname, '..');
const REPO_ROOT = path.resolve(SITE_DIR, '..');
const BUILD_DIR = path.join(SITE_DIR, 'build');
const ARTIFACTS = path.join(REPO_ROOT, 'artifacts/docs');
const NOT_FOUND = 'Page Not Found';

/** Every route the issue lists, with the h1 its page must show. */
const ROUTES: [string, string | RegExp][] = [
  ['/', 'Trove'],
  ['/markdown-page', 'A Markdown page'],
  ['/docs', 'Trove documentation'],
  ['/docs/user-guide/introduction', 'Introduction'],
  ['/docs/user-guide/installation', 'Installation'],
  ['/docs/user-guide/configuration', 'Configuration'],
  ['/docs/user-guide/deployment', 'Deployment'],
  ['/docs/user-guide/features/albums', 'Albums'],
  ['/docs/user-guide/features/explore', 'Explore'],
  ['/docs/user-guide/features/jobs', 'Jobs'],
  ['/docs/user-guide/features/library', 'Library'],
  ['/docs/user-guide/features/metadata', 'Metadata'],
  ['/docs/user-guide/features/people', 'People'],
  ['/docs/user-guide/features/places', 'Places'],
  ['/docs/user-guide/features/search', 'Search'],
  ['/docs/user-guide/features/things', 'Things'],
  ['/docs/user-guide/features/users', 'Users'],
  ['/docs/dev-guide/contribution', 'Contribution'],
  ['/docs/dev-guide/design-document', 'Design document'],
  ['/docs/dev-guide/services', 'Services in depth'],
  ['/docs/dev-guide/benchmarks', 'Benchmarks'],
  ['/docs/dev-guide/environment', 'Environment'],
  ['/docs/dev-guide/folder-structure', 'Folder structure'],
  ['/docs/dev-guide/introduction', 'Developer guide'],
  ['/docs/dev-guide/notes', 'Notes'],
  ['/docs/dev-guide/roadmap', 'Roadmap'],
];

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.xml': 'application/xml',
  '.yaml': 'text/yaml; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

/** A static host: the file, else the folder's index.html, else 404.html with status 404. */
function serve(root: string): Promise<{ server: Server; origin: string }> {
  const server = createServer((req, res) => {
    let rel: string;
    try {
      rel = decodeURIComponent(new URL(req.url ?? '/', 'http://localhost').pathname);
    } catch {
      res.writeHead(400).end();
      return;
    }
    let file = path.join(root, path.normalize(rel));
    if (!file.startsWith(root)) {
      res.writeHead(403).end();
      return;
    }
    let status = 200;
    if (existsSync(file) && statSync(file).isDirectory()) file = path.join(file, 'index.html');
    if (!existsSync(file) || !statSync(file).isFile()) {
      file = path.join(root, '404.html');
      status = 404;
    }
    res.writeHead(status, { 'Content-Type': TYPES[path.extname(file)] ?? 'application/octet-stream' });
    createReadStream(file).pipe(res);
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }),
    );
  });
}

/** `docusaurus build` in docs/, like `make docs`; rejects with the end of its output when it fails. */
function build(): Promise<void> {
  const bin = path.join(path.dirname(require.resolve('@docusaurus/core/package.json')), 'bin/docusaurus.mjs');
  // analytics stay off in the tested build, whatever the environment says
  const env: NodeJS.ProcessEnv = { ...process.env, NO_UPDATE_NOTIFIER: '1', CI: 'true' };
  delete env.TROVE_DOCS_GTAG_ID;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, 'build', '--out-dir', BUILD_DIR], {
      cwd: SITE_DIR,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const keep = (d: Buffer): void => {
      output = (output + d.toString()).slice(-20000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`docusaurus build failed (exit ${code}):\n${output.slice(-6000)}`)),
    );
  });
}

let server: Server | undefined;
let origin = '';
let browser: Browser | undefined;
let context: BrowserContext;
/** Requests the pages made to anything but the loopback server (analytics must make none). */
const outside: string[] = [];

async function open(url: string, ctx: BrowserContext = context): Promise<Page> {
  const page = await ctx.newPage();
  await page.goto(origin + url, { waitUntil: 'load' });
  return page;
}

async function newContext(options: Parameters<Browser['newContext']>[0] = {}): Promise<BrowserContext> {
  const ctx = await browser!.newContext({ viewport: { width: 1280, height: 900 }, ...options });
  ctx.on('request', (r) => {
    const u = new URL(r.url());
    if (!['data:', 'blob:', 'about:'].includes(u.protocol) && u.hostname !== '127.0.0.1') outside.push(r.url());
  });
  return ctx;
}

beforeAll(async () => {
  const executablePath = requireChromium();
  await build();
  ({ server, origin } = await serve(BUILD_DIR));
  browser = await chromium.launch({ executablePath, args: [...chromiumArgs] });
  context = await newContext();
  mkdirSync(ARTIFACTS, { recursive: true });
}, 10 * 60_000);

afterAll(async () => {
  await browser?.close();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
});

describe('build', () => {
  it('is configured so that broken links fail it and broken Markdown links and anchors warn', () => {
    const cfg = readFileSync(path.join(SITE_DIR, '.docusaurus/docusaurus.config.mjs'), 'utf8');
    expect(cfg).toContain('"onBrokenLinks": "throw"');
    expect(cfg).toContain('"onBrokenMarkdownLinks": "warn"');
    expect(cfg).toContain('"onBrokenAnchors": "warn"');
    expect(cfg).toMatch(/"defaultLocale": "en",\s*"locales": \[\s*"en"\s*\]/);
    expect(cfg).toContain('"baseUrl": "/"');
  });

  it('uses Docusaurus 3.4.0 and renders the OpenAPI file in place (no copy in docs/)', () => {
    const core = JSON.parse(readFileSync(require.resolve('@docusaurus/core/package.json'), 'utf8')) as {
      version: string;
    };
    expect(core.version).toBe('3.4.0');
    const config = readFileSync(path.join(SITE_DIR, 'docusaurus.config.ts'), 'utf8');
    expect(config).toContain("path.join(repoRoot, 'openapi/openapi.yaml')");
    const copies = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', 'docs'], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
    })
      .split('\n')
      .filter((f) => /openapi\.ya?ml$/.test(f));
    expect(copies).toEqual([]);
  });

  it('type-checks (Docusaurus strips types without checking them)', () => {
    const tsc = require.resolve('typescript/bin/tsc');
    let errors = '';
    try {
      execFileSync(process.execPath, [tsc, '-p', path.join(SITE_DIR, 'tsconfig.json'), '--noEmit'], {
        cwd: SITE_DIR,
        encoding: 'utf8',
        stdio: 'pipe',
      });
    } catch (err) {
      const e = err as { stdout?: string; stderr?: string; message: string };
      errors = `${e.stdout ?? ''}${e.stderr ?? ''}` || e.message;
    }
    expect(errors).toBe('');
  }, 120_000);

  it('has a single docs version, labelled Next', () => {
    const cfg = readFileSync(path.join(SITE_DIR, '.docusaurus/docusaurus.config.mjs'), 'utf8');
    expect(cfg).toMatch(/"lastVersion": "current",\s*"versions": \{\s*"current": \{\s*"label": "Next"\s*\}\s*\}/);
    expect(existsSync(path.join(SITE_DIR, 'versions.json'))).toBe(false);
  });

  it('has no analytics unless TROVE_DOCS_GTAG_ID is set', () => {
    expect(readFileSync(path.join(BUILD_DIR, 'index.html'), 'utf8')).not.toMatch(/googletagmanager|gtag\(/);
  });

  it('turns on gtag with IP anonymisation when TROVE_DOCS_GTAG_ID is set at build time', () => {
    const presetOptions = (id: string | undefined): Record<string, unknown> => {
      const saved = process.env.TROVE_DOCS_GTAG_ID;
      if (id === undefined) delete process.env.TROVE_DOCS_GTAG_ID;
      else process.env.TROVE_DOCS_GTAG_ID = id;
      try {
        let options: Record<string, unknown> = {};
        jest.isolateModules(() => {
          // a fresh evaluation of the config with this environment: jest.isolateModules needs require()
          type SiteConfig = { default: { presets: [string, Record<string, unknown>][] } };
          // eslint-disable-next-line @typescript-eslint/no-require-imports
          const config = (require('../docusaurus.config') as SiteConfig).default;
          options = config.presets.find(([name]) => name === 'classic')![1];
        });
        return options;
      } finally {
        if (saved === undefined) delete process.env.TROVE_DOCS_GTAG_ID;
        else process.env.TROVE_DOCS_GTAG_ID = saved;
      }
    };
    expect(presetOptions(undefined).gtag).toBeUndefined();
    expect(presetOptions('G-TEST123').gtag).toEqual({ trackingID: ['G-TEST123'], anonymizeIP: true });
  });

  it('redirects .html addresses with static pages', () => {
    const page = readFileSync(path.join(BUILD_DIR, 'docs/user-guide/introduction.html/index.html'), 'utf8');
    expect(page).toContain('url=/docs/user-guide/introduction"');
  });
});

describe('routes', () => {
  it.each(ROUTES)('%s renders its page', async (route, title) => {
    const page = await open(route);
    try {
      const h1 = page.locator('h1').first();
      await h1.waitFor();
      const text = (await h1.textContent()) ?? '';
      expect(text).not.toContain(NOT_FOUND);
      if (typeof title === 'string') expect(text.trim()).toBe(title);
      else expect(text).toMatch(title);
      expect(new URL(page.url()).pathname).toBe(route);
    } finally {
      await page.close();
    }
  });

  it('/docs has the sidebar, whose main entry is the user guide introduction', async () => {
    const page = await open('/docs');
    try {
      const first = page.locator('.theme-doc-sidebar-menu a.menu__link').first();
      expect(await first.getAttribute('href')).toBe('/docs/user-guide/introduction');
      expect(await page.locator('.theme-doc-sidebar-menu').textContent()).toMatch(/User guide.*Developer guide/s);
    } finally {
      await page.close();
    }
  });

  it('an unknown path shows the not-found page', async () => {
    const page = await context.newPage();
    try {
      const res = await page.goto(`${origin}/docs/no/such/page`);
      expect(res?.status()).toBe(404);
      await expect(page.locator('h1').first().textContent()).resolves.toContain(NOT_FOUND);
    } finally {
      await page.close();
    }
  });

  it.each([
    ['/docs/user-guide/introduction.html', '/docs/user-guide/introduction'],
    ['/docs/user-guide/introduction/index.html', '/docs/user-guide/introduction'],
    ['/index.html', '/'],
  ])('%s ends on %s', async (from, to) => {
    const page = await open(from);
    try {
      await page.waitForURL((u) => u.pathname === to, { timeout: 15_000 });
      await expect(page.locator('h1').first().textContent()).resolves.not.toContain(NOT_FOUND);
    } finally {
      await page.close();
    }
  });
});

describe('home page', () => {
  it('names the product, its tagline, what it does, and links to the guides and the API', async () => {
    const page = await open('/');
    try {
      await expect(page.locator('.hero__title').textContent()).resolves.toBe('Trove');
      await expect(page.locator('.hero__subtitle').textContent()).resolves.toBe(
        'Smarter Home for all your Photos and Videos',
      );
      const main = (await page.locator('main').textContent()) ?? '';
      expect(main).toContain('What Trove does');
      expect(main).toMatch(/self-hosted/i);
      for (const href of ['/docs/user-guide/introduction', '/docs/dev-guide/introduction', '/api/']) {
        expect(await page.locator(`header.hero a[href="${href}"]`).count()).toBe(1);
      }
      await page.screenshot({ path: path.join(ARTIFACTS, 'home.png'), fullPage: true });
    } finally {
      await page.close();
    }
  });
});

/**
 * Waits until React has hydrated the page: Docusaurus then sets <html data-has-hydrated="true">. On
 * the API reference this is also when redocusaurus has replaced the server-rendered reference with
 * the one it renders in the browser (a new redoc store, new nodes), so elements found from then on
 * stay attached.
 */
async function hydrated(page: Page): Promise<void> {
  await page.locator('html[data-has-hydrated="true"]').waitFor({ state: 'attached', timeout: 30_000 });
}

describe('API reference', () => {
  it('/api/ shows the operations of openapi/openapi.yaml', async () => {
    const page = await open('/api/');
    try {
      await hydrated(page);
      // the operation's own heading in the main panel (the menu entry may be collapsed)
      const operation = page.getByRole('heading', { name: 'Upload a new mediaItem' }).first();
      await operation.waitFor({ timeout: 30_000 });
      const text = (await page.locator('.redocusaurus').textContent()) ?? '';
      for (const summary of ['Get the server version', 'Create an album', 'Log in', 'Search media items'])
        expect(text).toContain(summary);
      // the screenshot shows an operation, not only the introduction
      await operation.scrollIntoViewIfNeeded();
      await expect(
        operation.evaluate(
          (h) => h.getBoundingClientRect().top >= 0 && h.getBoundingClientRect().bottom <= window.innerHeight,
        ),
      ).resolves.toBe(true);
      await page.screenshot({ path: path.join(ARTIFACTS, 'api.png') });
    } finally {
      await page.close();
    }
  });
});

describe('layout', () => {
  it('has the navbar: Docs, API, locale dropdown, source repository, colour toggle', async () => {
    const page = await open('/docs/user-guide/introduction');
    try {
      const nav = page.locator('nav.navbar');
      await expect(nav.locator('a.navbar__link', { hasText: 'Docs' }).getAttribute('href')).resolves.toBe('/docs');
      await expect(nav.locator('a.navbar__link', { hasText: 'API' }).getAttribute('href')).resolves.toBe('/api/');
      await expect(nav.locator('.dropdown', { hasText: 'English' }).count()).resolves.toBe(1);
      const source = nav.locator('a[aria-label="Source repository"]');
      expect(await source.getAttribute('href')).toMatch(/^https?:\/\//);
      await expect(nav.locator('button[title*="dark"], button[title*="light"]').count()).resolves.toBe(1);
    } finally {
      await page.close();
    }
  });

  it('has a dark footer with a copyright line', async () => {
    const page = await open('/');
    try {
      const footer = page.locator('footer.footer');
      await expect(footer.getAttribute('class')).resolves.toContain('footer--dark');
      await expect(footer.locator('.footer__copyright').textContent()).resolves.toMatch(/Copyright © \d{4}/);
    } finally {
      await page.close();
    }
  });

  it('has a table of contents with heading levels 2 to 3', async () => {
    const page = await open('/docs/user-guide/installation');
    try {
      const toc = page.locator('.table-of-contents').first();
      await toc.waitFor();
      const top = await toc.locator(':scope > li > a').allTextContents();
      const nested = await toc.locator(':scope > li > ul > li > a').allTextContents();
      expect(top).toContain('Single machine: make up');
      expect(nested).toContain('First login');
      expect(await toc.locator('ul ul ul').count()).toBe(0);
    } finally {
      await page.close();
    }
  });

  it('the colour toggle switches to dark (light by default) and the choice survives a reload', async () => {
    const ctx = await newContext();
    try {
      const page = await open('/', ctx);
      await expect(page.locator('html').getAttribute('data-theme')).resolves.toBe('light');
      await page.locator('nav.navbar button[title*="dark"]').click();
      await expect(page.locator('html').getAttribute('data-theme')).resolves.toBe('dark');
      await page.reload({ waitUntil: 'load' });
      await expect(page.locator('html').getAttribute('data-theme')).resolves.toBe('dark');
    } finally {
      await ctx.close();
    }
  });

  it('the announcement bar closes and stays closed after a reload', async () => {
    const ctx = await newContext();
    try {
      const page = await open('/', ctx);
      const bar = page.locator('[class*="announcementBar_"]').first();
      await bar.waitFor();
      expect(await bar.textContent()).toContain('under active development');
      expect(await bar.locator('a[href="/docs/dev-guide/contribution"]').count()).toBe(1);
      await bar.locator('button[aria-label="Close"]').click();
      await expect(page.locator('[class*="announcementBar_"]').count()).resolves.toBe(0);
      await page.reload({ waitUntil: 'load' });
      await page.locator('nav.navbar').waitFor();
      await expect(page.locator('[class*="announcementBar_"]').count()).resolves.toBe(0);
    } finally {
      await ctx.close();
    }
  });

  it('a narrow viewport shows the mobile sidebar toggle, which opens the docs menu', async () => {
    const ctx = await newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    try {
      const page = await open('/docs/user-guide/introduction', ctx);
      const toggle = page.locator('button.navbar__toggle');
      await toggle.waitFor({ state: 'visible' });
      await toggle.click();
      const sidebar = page.locator('.navbar-sidebar');
      await sidebar.waitFor({ state: 'visible' });
      await sidebar.getByText('Installation').first().waitFor({ state: 'visible' });
    } finally {
      await ctx.close();
    }
  });
});

describe('content derived from the repository', () => {
  it('the folder-structure page shows every top-level folder and every workspace', async () => {
    const tracked = execFileSync('git', ['ls-files', '--cached'], { cwd: REPO_ROOT, encoding: 'utf8' }).split('\n');
    const topDirs = [
      ...new Set(
        tracked.filter((f) => f.includes('/') && existsSync(path.join(REPO_ROOT, f))).map((f) => f.split('/')[0]),
      ),
    ];
    const workspaces = (
      JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { workspaces: string[] }
    ).workspaces;
    const page = await open('/docs/dev-guide/folder-structure');
    try {
      for (const d of [...topDirs, ...workspaces])
        expect({ d, count: await page.locator(`[data-path="${d}"]`).count() }).toEqual({ d, count: 1 });
      for (const w of workspaces)
        expect({ w, count: await page.locator(`[data-workspace="${w}"]`).count() }).toEqual({ w, count: 1 });
    } finally {
      await page.close();
    }
  });

  it('the design document lists every NATS subject of proto-events/CATALOGUE.md and draws its diagrams', async () => {
    const catalogue = readFileSync(path.join(REPO_ROOT, 'proto-events/CATALOGUE.md'), 'utf8');
    const subjects = [...catalogue.matchAll(/^\| `([^`]+)` \|/gm)].map((m) => m[1]);
    expect(subjects.length).toBeGreaterThan(0);
    const page = await open('/docs/dev-guide/design-document');
    try {
      const text = (await page.locator('article').textContent()) ?? '';
      for (const s of subjects) expect(text).toContain(s);
      // the services table says, from the same catalogue, what each service does on NATS
      expect(text).toMatch(/answers\s*trove\.v1\.auth/);
      await page.locator('.docusaurus-mermaid-container svg').first().waitFor({ timeout: 30_000 });
    } finally {
      await page.close();
    }
  });

  it('feature pages list the API calls behind them, linked to the API reference', async () => {
    const page = await open('/docs/user-guide/features/library');
    try {
      const link = page.locator('a[href="/api/#operation/uploadMediaItem"]');
      await expect(link.count()).resolves.toBe(1);
      expect(await page.locator('article').textContent()).toContain('Upload a new mediaItem');
    } finally {
      await page.close();
    }
  });

  it('no built page marks a served API call as planned', () => {
    const served = new Set(
      (
        JSON.parse(
          readFileSync(path.join(REPO_ROOT, 'services/gateway/src/routes/served-operations.json'), 'utf8'),
        ) as { operationIds: string[] }
      ).operationIds,
    );
    // What a page said of a call, or of a feature, without a gateway route.
    const unserved = [
      /This feature is planned/,
      /the others are planned/,
      /Partly available/,
      /in progress \(\d+ of \d+ calls\)/,
      /<span[^>]*>planned<\/span>/,
      /\(planned\)/,
      /features in these docs are still planned/,
    ];
    const pages: string[] = [];
    const walk = (dir: string): void => {
      for (const name of readdirSync(dir)) {
        const file = path.join(dir, name);
        if (statSync(file).isDirectory()) walk(file);
        else if (name.endsWith('.html')) pages.push(file);
      }
    };
    walk(BUILD_DIR);
    expect(pages.length).toBeGreaterThan(ROUTES.length);
    const found: string[] = [];
    let rows = 0;
    for (const file of pages) {
      const html = readFileSync(file, 'utf8');
      const rel = path.relative(BUILD_DIR, file);
      for (const re of unserved) if (re.test(html)) found.push(`${rel}: ${re}`);
      for (const m of html.matchAll(/data-operation="(\w+)"/g)) {
        rows++;
        if (!served.has(m[1])) found.push(`${rel}: lists ${m[1]}, which the gateway does not serve`);
      }
    }
    expect(rows).toBeGreaterThan(0);
    expect(found).toEqual([]);
  });

  it('feature pages and the home page say every call is served', async () => {
    for (const feature of [
      'albums',
      'explore',
      'jobs',
      'library',
      'metadata',
      'people',
      'places',
      'search',
      'things',
      'users',
    ]) {
      const page = await open(`/docs/user-guide/features/${feature}`);
      try {
        const admonition = page.locator('article .theme-admonition').first();
        await admonition.waitFor();
        expect({ feature, text: await admonition.textContent() }).toEqual({
          feature,
          text: expect.stringMatching(/^Available.*served by the gateway today/s),
        });
      } finally {
        await page.close();
      }
    }
    const served = (
      JSON.parse(readFileSync(path.join(REPO_ROOT, 'services/gateway/src/routes/served-operations.json'), 'utf8')) as {
        operationIds: string[];
      }
    ).operationIds;
    const home = await open('/');
    try {
      const main = (await home.locator('main').textContent()) ?? '';
      expect(main).not.toMatch(/planned/i);
      expect(main).toMatch(new RegExp(`has ${served.length} calls, and the\\s+gateway serves every one of them`));
    } finally {
      await home.close();
    }
  });

  it('makes no request outside the loopback server (no analytics by default)', () => {
    expect(outside).toEqual([]);
  });
});

/**
 * Fixtures of the browser suite: the whole of Trove (stack + the built web server) and Debian's
 * chromium driven by playwright-core, started once; per test a user with the library it needs
 * (uploaded through the API and processed), and a fresh browser context logged in through the
 * login page, whose uncaught exceptions and React errors are collected.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { chromiumArgs, requireChromium, startStack } from '@trove/kit/testing';
import type { Stack } from '@trove/kit/testing';
import { clip, cornerImage, exifDateTime, jpegWithExif, noiseImage } from '@trove/kit/testing/media';
import { newUser, ok, uploadReady } from '../support/api';
import type { MediaItem, TestUser } from '../support/api';
import { startWebServer } from './web-server';

const REPO_ROOT = join(__dirname, '..', '..');
const ARTIFACTS = join(REPO_ROOT, 'artifacts', 'web');
export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

/** What the person of these tests uploads: their names as the page shows them, and their bytes. */
export interface Files {
  jpeg: { name: 'beach.jpg'; mimeType: 'image/jpeg'; buffer: Buffer };
  png: { name: 'diagram.png'; mimeType: 'image/png'; buffer: Buffer };
  mp4: { name: 'clip.mp4'; mimeType: 'video/mp4'; buffer: Buffer };
}

/**
 * A JPEG taken "4 years ago today" at noon by a named camera, a PNG and an H.264 MP4 with sound
 * (640x360, 3 s); big enough to watch their upload progress.
 */
async function makeFiles(): Promise<Files> {
  const yearsAgo = new Date();
  yearsAgo.setFullYear(yearsAgo.getFullYear() - 4);
  yearsAgo.setHours(12, 0, 0, 0);
  const jpeg = await jpegWithExif(
    noiseImage(1600, 1200),
    { IFD0: { Make: 'Trove', Model: 'Test Camera' }, IFD2: { DateTimeOriginal: exifDateTime(yearsAgo) } },
    92,
  );
  const png = await (await cornerImage(900, 1200)).png().toBuffer();
  const mp4 = await clip('mp4', { seconds: 3, size: '640x360', rate: 25 });
  return {
    jpeg: { name: 'beach.jpg', mimeType: 'image/jpeg', buffer: jpeg },
    png: { name: 'diagram.png', mimeType: 'image/png', buffer: png },
    mp4: { name: 'clip.mp4', mimeType: 'video/mp4', buffer: mp4 },
  };
}

/** One logged-in (or not yet) browser context of one user. */
export interface Session {
  user: TestUser;
  context: BrowserContext;
  page: Page;
  /** The user's items by kind, as uploaded for the test. */
  items: Partial<Record<keyof Files, MediaItem>>;
}

export interface WebApp {
  stack: Stack;
  /** `http://127.0.0.1:<port>` of the web server. */
  origin: string;
  browser: Browser;
  files: Files;
  /**
   * A new user owning `upload` (processed, READY), in a fresh browser context at `viewport`,
   * logged in through the login page unless `loggedIn` is false. Closed after the test.
   */
  session(opts?: {
    upload?: Array<keyof Files>;
    viewport?: typeof DESKTOP;
    phone?: boolean;
    loggedIn?: boolean;
    /** The browser's time zone (an IANA name), else the machine's. */
    timezoneId?: string;
  }): Promise<Session>;
  /** A fresh browser context of an existing user, logged in through the login page; closed after the test. */
  sessionOf(user: TestUser, viewport?: typeof DESKTOP): Promise<Page>;
  /** A fresh context without a session (a visitor of a shared link), closed after the test. */
  visitor(viewport?: typeof DESKTOP): Promise<Page>;
  /** A fresh context whose browser answers the basic-auth dialog with the administrator's credentials. */
  administrator(viewport?: typeof DESKTOP): Promise<Page>;
  /** Logs `user` in through the login page of `page`. */
  logIn(page: Page, user: TestUser): Promise<void>;
  /** Closes the test's contexts and answers the page errors they saw. */
  closeContexts(): Promise<string[]>;
  stop(): Promise<void>;
}

/** The services every browser test needs; a suite may add more (e.g. explore). */
const BASE_SERVICES = ['auth', 'gateway', 'media', 'worker', 'library'];

export async function startWebApp({ services = [] }: { services?: string[] } = {}): Promise<WebApp> {
  const executablePath = requireChromium();
  mkdirSync(ARTIFACTS, { recursive: true });
  const files = await makeFiles();
  // Every test logs in through the web server, whose requests all come from one address: lift
  // the per-address login limit (its own suite tests it).
  const stack = await startStack({
    services: [...BASE_SERVICES, ...services],
    env: { TROVE_TRASH_RETENTION_DAYS: '30', TROVE_LOGIN_RATE_LIMIT: '1000' },
  });
  let browser: Browser | undefined;
  try {
    const { origin } = await startWebServer(stack);
    browser = await chromium.launch({ executablePath, args: [...chromiumArgs] });
    return webApp(stack, origin, browser, files);
  } catch (err) {
    await browser?.close();
    await stack.stop();
    throw err;
  }
}

/**
 * The suite's web app: started before its tests (with `services` added), stopped after them; after each
 * test its contexts are closed and the test fails on any uncaught exception or React error they saw.
 */
export function webAppForSuite(opts: { services?: string[] } = {}): () => WebApp {
  let web: WebApp | undefined;
  beforeAll(async () => {
    web = await startWebApp(opts);
  }, 180_000);
  afterAll(async () => {
    await web?.stop();
  }, 60_000);
  afterEach(async () => {
    if (web) expect(await web.closeContexts()).toEqual([]);
  });
  return () => {
    if (!web) throw new Error('the web app did not start');
    return web;
  };
}

function webApp(stack: Stack, origin: string, browser: Browser, files: Files): WebApp {
  const open: BrowserContext[] = [];
  let errors: string[] = [];

  /**
   * Uncaught exceptions, React errors (e.g. hydration mismatches) and Content-Security-Policy violations
   * (Chromium reports each as a console error: "Refused to …") in any page: there must be none.
   */
  const newContext = async (
    viewport: typeof DESKTOP,
    phone = false,
    extra: BrowserContextOptions = {},
  ): Promise<BrowserContext> => {
    const context = await browser.newContext({
      ...(phone ? { viewport, isMobile: true, hasTouch: true } : { viewport }),
      ...extra,
    });
    context.on('page', (p) => {
      p.on('pageerror', (e) => errors.push(`${p.url()}: ${e.message}`));
      p.on('console', (m) => {
        if (m.type() === 'error' && /React|hydrat|Content Security Policy/i.test(m.text()))
          errors.push(`${p.url()}: ${m.text()}`);
      });
    });
    open.push(context);
    return context;
  };

  const logIn = async (page: Page, user: TestUser) => {
    await page.goto(`${origin}/login`);
    await page.getByLabel('Username').fill(user.username);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(`${origin}/`);
    await hydrated(page);
  };

  return {
    stack,
    origin,
    browser,
    files,
    logIn,
    async session({ upload = [], viewport = DESKTOP, phone = false, loggedIn = true, timezoneId } = {}) {
      const user = await newUser(stack);
      const uploaded = await Promise.all(
        upload.map(async (kind) => [kind, await uploadReady(user.api, files[kind].buffer, files[kind].name)] as const),
      );
      const context = await newContext(viewport, phone, timezoneId ? { timezoneId } : {});
      const page = await context.newPage();
      if (loggedIn) await logIn(page, user);
      return { user, context, page, items: Object.fromEntries(uploaded) };
    },
    async sessionOf(user, viewport = DESKTOP) {
      const page = await (await newContext(viewport)).newPage();
      await logIn(page, user);
      return page;
    },
    async visitor(viewport = DESKTOP) {
      return (await newContext(viewport)).newPage();
    },
    async administrator(viewport = DESKTOP) {
      return (
        await newContext(viewport, false, {
          httpCredentials: { username: stack.adminUsername, password: stack.adminPassword },
        })
      ).newPage();
    },
    async closeContexts() {
      await Promise.all(open.splice(0).map((c) => c.close()));
      const seen = errors;
      errors = [];
      return seen;
    },
    async stop() {
      await browser.close();
      await stack.stop();
    },
  };
}

/** A shared album of `items` made through the API. */
export async function sharedAlbum(user: TestUser, name: string, items: MediaItem[]): Promise<string> {
  const album = await ok(user.api.POST('/v1/albums', { body: { name, shared: true } }), 201);
  await ok(
    user.api.POST('/v1/albums/{id}/mediaItems', {
      params: { path: { id: album.id } },
      body: { mediaItems: items.map((i) => i.id) },
    }),
    204,
  );
  return album.id;
}

/** An album of the owner's `items`, made through the API, with `member` added in `role`; answers its id. */
export async function albumWithMember(
  owner: TestUser,
  name: string,
  items: MediaItem[],
  member: TestUser,
  role: 'viewer' | 'contributor',
): Promise<string> {
  const album = await ok(owner.api.POST('/v1/albums', { body: { name } }), 201);
  const path = { params: { path: { id: album.id } } };
  await ok(
    owner.api.POST('/v1/albums/{id}/mediaItems', { ...path, body: { mediaItems: items.map((i) => i.id) } }),
    204,
  );
  await ok(owner.api.POST('/v1/albums/{id}/members', { ...path, body: { username: member.username, role } }), 201);
  return album.id;
}

/** Saves what the page shows as artifacts/web/<name>.png (gitignored; CI keeps it); answers the file's path. */
export async function shot(page: Page, name: string): Promise<string> {
  const path = join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path, fullPage: false });
  return path;
}

/**
 * Screenshots of the page as it is, at 1280 and 390 px wide in the light and the dark theme (the
 * theme follows the system's), named `<name>-desktop|phone-light|dark`; answers their paths.
 */
export async function shots(page: Page, name: string): Promise<string[]> {
  const paths: string[] = [];
  for (const [width, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    await page.setViewportSize(viewport);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await eventually(() => page.evaluate(() => document.fonts.status), 'loaded');
      paths.push(await shot(page, `${name}-${width}-${scheme}`));
    }
  }
  await page.setViewportSize(DESKTOP);
  await page.emulateMedia({ colorScheme: 'light' });
  return paths;
}

/** The width and height a PNG file says it has (from its IHDR chunk); throws when the file is not a PNG. */
export function pngSize(file: Buffer): { width: number; height: number } {
  if (
    file.length < 24 ||
    !file.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) ||
    file.toString('latin1', 12, 16) !== 'IHDR'
  )
    throw new Error('not a PNG');
  return { width: file.readUInt32BE(16), height: file.readUInt32BE(20) };
}

/** Polls `read` until it returns `expected` (or satisfies it, when a function), else fails with the last value. */
export async function eventually<T>(
  read: () => Promise<T>,
  expected: T | ((v: T) => boolean),
  timeoutMs = 10_000,
): Promise<T> {
  const matches = typeof expected === 'function' ? (expected as (v: T) => boolean) : (v: T) => v === expected;
  const deadline = Date.now() + timeoutMs;
  let last: T = await read();
  while (!matches(last)) {
    if (Date.now() > deadline)
      throw new Error(
        `still ${JSON.stringify(last)} after ${timeoutMs} ms (expected ${typeof expected === 'function' ? 'a match' : JSON.stringify(expected)})`,
      );
    await new Promise((r) => setTimeout(r, 100));
    last = await read();
  }
  return last;
}

export const tiles = (p: Page) => p.locator('.grid .tile');

/** Goes to a page through the navigation, as a person would. */
export async function nav(p: Page, name: string, path: string): Promise<void> {
  await p.getByRole('navigation', { name: 'Library' }).getByRole('link', { name }).click();
  await p.waitForURL(new URL(path, p.url()).href);
  await hydrated(p);
}

/**
 * Waits until the page runs (root.tsx marks <html> once hydrated): a page loaded whole (after a form
 * sent before the scripts ran, or a `goto`) shows everything at once, but a click on what React
 * handles does nothing until then — on a busy machine, seconds later.
 */
export async function hydrated(p: Page): Promise<void> {
  await p.locator('html[data-hydrated]').waitFor({ state: 'attached' });
}

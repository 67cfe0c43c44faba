/**
 * Debian's chromium as the browser tests, the docs' site test and the timeline bench drive it
 * through playwright-core (never a browser downloaded by playwright): where it is and its flags.
 */
import { existsSync } from 'node:fs';

/** The chromium binary, when installed. */
export const chromiumPath: string | undefined = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) =>
  existsSync(p),
);

/** Headless, no sandbox (root in CI), no GPU, nothing fetched in the background, videos play unasked. */
export const chromiumArgs: readonly string[] = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--autoplay-policy=no-user-gesture-required',
];

/** The chromium binary, or an error that says how to install it. */
export function requireChromium(): string {
  if (!chromiumPath)
    throw new Error('Chromium is not installed: run `bash scripts/install.sh chromium` (or apt-get install chromium)');
  return chromiumPath;
}

import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';

/** The files of the shared fixture set the tests read (see FIXTURES). */
export const FIXTURE_FILES = ['IMG_0543.HEIC', 'jobs.jpeg', 'faces.jpg'] as const;

/**
 * The real phone photos for tests, which are not part of the repository: `../shared/fixtures/photos`
 * beside the checkout (the repository root is five levels up from `services/kit/{src,dist}/testing/media`),
 * or the folder `TROVE_FIXTURES_DIR` names. See /work/shared/fixtures/README.md (`../shared` of the
 * checkout) for what is in them.
 */
export const FIXTURES = process.env.TROVE_FIXTURES_DIR
  ? resolve(process.env.TROVE_FIXTURES_DIR)
  : join(__dirname, '..', '..', '..', '..', '..', '..', 'shared', 'fixtures', 'photos');

/** Whether every fixture file is there. */
export const fixturesPresent = (): boolean => FIXTURE_FILES.every((f) => existsSync(join(FIXTURES, f)));

/** Why the tests that need the real photos were skipped. */
export const FIXTURES_MISSING = `skipped: the real phone photos (${FIXTURE_FILES.join(', ')}) are not in ${FIXTURES} — put the shared fixture set at ../shared/fixtures/photos beside the checkout, or name its folder in TROVE_FIXTURES_DIR`;

let warned = false;
function warnMissing(): void {
  if (warned) return;
  warned = true;
  process.stderr.write(`${FIXTURES_MISSING}\n`);
}

/**
 * `describe` for a block that needs the real photos: skipped (its name saying which folder is
 * missing, and a line on stderr) when they are absent.
 */
export const describeWithFixtures = (name: string, fn: () => void): void => {
  if (fixturesPresent()) return describe(name, fn);
  warnMissing();
  describe.skip(`${name} (${FIXTURES_MISSING})`, fn);
};

/** `it` for a test that needs the real photos: skipped, saying why, when they are absent. */
export const itWithFixtures = (name: string, fn: jest.ProvidesCallback, timeout?: number): void => {
  if (fixturesPresent()) return it(name, fn, timeout);
  warnMissing();
  it.skip(`${name} (${FIXTURES_MISSING})`, fn, timeout);
};

/** A real iPhone HEIC (HEVC, 4032x3024, GPS, the still of a Live Photo). */
export const heicFixture = (): Promise<Buffer> => readFile(join(FIXTURES, 'IMG_0543.HEIC'));

/**
 * What IMG_0543.HEIC says, as the API and the worker report it (see the shared fixtures' README); it
 * was taken at 19.0609 N 72.8269 E.
 */
export const HEIC_FIXTURE_FACTS = {
  cameraMake: 'Apple',
  cameraModel: 'iPhone 12 mini',
  focalLength: '4.2',
  apertureFNumber: '1.6',
  isoEquivalent: '640',
  exposureTime: '0.04',
  creationTime: '2022-04-03T12:56:11.991+05:30',
  width: 4032,
  height: 3024,
} as const;

/**
 * The Live Photo pairing id in IMG_0543.HEIC's Apple maker notes (Media Group UUID): its motion part
 * carries the same value as com.apple.quicktime.content.identifier.
 */
export const HEIC_FIXTURE_PAIRING_ID = '599FEB0A-F64C-4A67-ABBE-2AE1A96A20EA';

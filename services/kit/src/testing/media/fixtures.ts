import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * The real phone photos committed for tests (see test-fixtures/README.md): the same path from
 * `services/kit/src/testing/media` (ts under jest) and `services/kit/dist/testing/media`.
 */
export const FIXTURES = join(__dirname, '..', '..', '..', 'test-fixtures');

/** A real iPhone HEIC (HEVC, 4032x3024, GPS, the still of a Live Photo). */
export const heicFixture = (): Promise<Buffer> => readFile(join(FIXTURES, 'IMG_0543.HEIC'));

/**
 * What IMG_0543.HEIC says, as the API and the worker report it (see test-fixtures/README.md); it
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

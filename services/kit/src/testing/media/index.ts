/**
 * Test media, in one place for the worker's unit tests and the end-to-end suites: pictures made
 * with sharp, videos made with ffmpeg, raw-like files written byte by byte, and the committed real
 * phone photos. Only tests import this module (`@trove/kit/testing/media`; it needs sharp and
 * ffmpeg, which the rest of the kit does not).
 */
export {
  cameraJpeg,
  colourAt,
  cornerImage,
  exifDateTime,
  gpsExif,
  jpegAt,
  jpegWithExif,
  noiseImage,
  noiseJpeg,
  noisePng,
  plainImage,
  screenshotPng,
  SYNTHETIC_PATTERNS,
} from './images';
export type { Exif, SyntheticPattern } from './images';
export { clip, ffmpeg, ffprobeJson, H264_ARGS, testClipArgs, videoTestDir } from './video';
export type { ClipShape, VideoTestDir } from './video';
export { cr3Like, dngLike, nefLike, orfLike, rafLike, rawWithPreview, RAW_EXIF, RAW_GPS, TiffBuilder } from './raw';
export type { TiffEntries } from './raw';
export {
  describeWithFixtures,
  FIXTURE_FILES,
  FIXTURES,
  FIXTURES_MISSING,
  fixturesPresent,
  HEIC_FIXTURE_FACTS,
  HEIC_FIXTURE_PAIRING_ID,
  heicFixture,
  itWithFixtures,
} from './fixtures';
export { textCardJpeg } from './text';

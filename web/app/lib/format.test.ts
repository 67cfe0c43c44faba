import { makeItem } from '../../test/fixtures';
import {
  altText,
  formatDuration,
  cameraSummary,
  dayKey,
  dayLabel,
  dimensionsSummary,
  exposureSummary,
  formatBytes,
  formatCoordinates,
  formatExposure,
  plural,
} from './format';

describe('format', () => {
  it('sizes', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(3_481_205)).toBe('3.3 MB');
    expect(formatBytes(5 * 1024 ** 3)).toBe('5 GB');
  });

  it('day headers: Today, Yesterday, this year without the year, earlier years with it', () => {
    const now = new Date(2024, 5, 24, 15, 0);
    expect(dayLabel(dayKey(now), now)).toBe('Today');
    expect(dayLabel('2024-06-23', now)).toBe('Yesterday');
    expect(dayLabel('2024-03-02', now)).toMatch(/^Sat,? 2 Mar$/);
    expect(dayLabel('2021-03-02', now)).toMatch(/^Tue,? 2 Mar 2021$/);
  });

  it('camera settings as photographers write them', () => {
    expect(formatExposure('0.004')).toBe('1/250 s');
    expect(formatExposure('2.5')).toBe('2.5 s');
    expect(formatExposure(null)).toBeNull();
    expect(
      exposureSummary({ apertureFNumber: '1.8', exposureTime: '0.04', focalLength: '4.20', isoEquivalent: '640' }),
    ).toBe('ƒ/1.8 · 1/25 s · 4.2 mm · ISO 640');
    expect(
      exposureSummary({ apertureFNumber: null, exposureTime: null, focalLength: null, isoEquivalent: null }),
    ).toBeNull();
    expect(cameraSummary({ cameraMake: 'Google', cameraModel: 'Pixel 8' })).toBe('Google Pixel 8');
    expect(cameraSummary({ cameraMake: 'Canon', cameraModel: 'Canon EOS R6' })).toBe('Canon EOS R6');
    expect(cameraSummary({ cameraMake: null, cameraModel: null })).toBeNull();
    expect(dimensionsSummary({ width: 4032, height: 3024 })).toBe('4032 × 3024 · 12.2 MP');
    expect(formatCoordinates(52.370216, -4.895168)).toBe('52.37022° N, 4.89517° W');
  });

  it('retention periods', () => {
    expect(formatDuration(30 * 86400)).toBe('30 days');
    expect(formatDuration(86400)).toBe('1 day');
    expect(formatDuration(7200)).toBe('2 hours');
    expect(formatDuration(90)).toBe('2 minutes');
    expect(formatDuration(5)).toBe('5 seconds');
  });

  it('alt text says what the item is, its description or file name, and when', () => {
    expect(altText(makeItem({ filename: 'IMG_1.jpg' }))).toMatch(/^Photo IMG_1\.jpg, /);
    expect(altText(makeItem({ mediaItemType: 'video', description: 'Waves' }))).toMatch(/^Video: Waves \(/);
    expect(plural(1, 'item')).toBe('1 item');
    expect(plural(1200, 'item')).toBe('1,200 items');
  });
});

import { isSupportedName } from '../extensions';
import { albumOfFolder, matchSidecars, parseSidecar } from './sidecars';

describe('Takeout sidecars', () => {
  const match = (names: string[]) => Object.fromEntries(matchSidecars(names, isSupportedName));

  it('finds <name>.json and <name>.supplemental-metadata.json', () => {
    expect(match(['IMG_1.jpg', 'IMG_1.jpg.json', 'IMG_2.HEIC', 'IMG_2.HEIC.supplemental-metadata.json'])).toEqual({
      'IMG_1.jpg': 'IMG_1.jpg.json',
      'IMG_2.HEIC': 'IMG_2.HEIC.supplemental-metadata.json',
    });
  });

  it('finds the names Takeout cut short', () => {
    expect(
      match([
        'PXL_20230312_123456789.jpg',
        'PXL_20230312_123456789.jpg.supplemental-metad.json',
        'Screenshot_20230101-101010_Chrome.jpg',
        'Screenshot_20230101-101010_Chrome.jpg.supplem.json',
        'a_very_long_file_name_that_google_cut_in_the_middle_of_it.jpg',
        'a_very_long_file_name_that_google_cut_in_the_m.json',
      ]),
    ).toEqual({
      'PXL_20230312_123456789.jpg': 'PXL_20230312_123456789.jpg.supplemental-metad.json',
      'Screenshot_20230101-101010_Chrome.jpg': 'Screenshot_20230101-101010_Chrome.jpg.supplem.json',
      'a_very_long_file_name_that_google_cut_in_the_middle_of_it.jpg':
        'a_very_long_file_name_that_google_cut_in_the_m.json',
    });
  });

  it('gives a (1) copy its numbered sidecar, and the original its own', () => {
    expect(
      match([
        'IMG_5.jpg',
        'IMG_5(1).jpg',
        'IMG_5.jpg.json',
        'IMG_5.jpg(1).json',
        'V(2).mp4',
        'V.mp4.supplemental-metadata(2).json',
      ]),
    ).toEqual({
      'IMG_5.jpg': 'IMG_5.jpg.json',
      'IMG_5(1).jpg': 'IMG_5.jpg(1).json',
      'V(2).mp4': 'V.mp4.supplemental-metadata(2).json',
    });
  });

  it('gives an -edited copy its original’s sidecar, and ignores metadata.json and other files', () => {
    expect(
      match(['IMG_7.jpg', 'IMG_7-edited.jpg', 'IMG_7.jpg.json', 'metadata.json', 'print-subscriptions.json']),
    ).toEqual({
      'IMG_7.jpg': 'IMG_7.jpg.json',
      'IMG_7-edited.jpg': 'IMG_7.jpg.json',
    });
  });

  it('does not give one photo another’s sidecar', () => {
    expect(match(['IMG_1.jpg', 'IMG_10.jpg', 'IMG_10.jpg.json'])).toEqual({ 'IMG_10.jpg': 'IMG_10.jpg.json' });
  });

  it('reads date, place (geoData, else geoDataExif; 0,0 is none), description and flags', () => {
    expect(
      parseSidecar({
        title: 'IMG_1.jpg',
        description: 'Beach',
        photoTakenTime: { timestamp: '1562000000', formatted: '1 Jul 2019' },
        geoData: { latitude: 0, longitude: 0, altitude: 0 },
        geoDataExif: { latitude: 43.7, longitude: 7.25 },
        favorited: true,
        archived: true,
      }),
    ).toEqual({
      takenAt: '2019-07-01T16:53:20.000Z',
      latitude: 43.7,
      longitude: 7.25,
      description: 'Beach',
      favourite: true,
      archived: true,
      trashed: false,
    });
    expect(parseSidecar({ trashed: true, description: '' })).toEqual({
      favourite: false,
      archived: false,
      trashed: true,
    });
    expect(parseSidecar(null)).toEqual({ favourite: false, archived: false, trashed: false });
  });

  it('makes an album of an album folder, none of "Photos from YYYY"', () => {
    expect(albumOfFolder('Photos from 2019')).toBeUndefined();
    expect(albumOfFolder('Rome 2019', { title: 'Rome, spring 2019' })).toBe('Rome, spring 2019');
    expect(albumOfFolder('Untitled(3)', {})).toBe('Untitled(3)');
  });
});

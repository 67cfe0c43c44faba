import { SUPPORTED_FILE_TYPES } from '@trove/kit/filetype';
import { EXTENSION_ALIASES, isSupportedName } from './extensions';
import { SERVER_EXTENSIONS } from './generated/extensions';

describe('extensions', () => {
  it('are the server’s own list (npm run generate -w cli after a change to kit/filetype)', () => {
    expect(SERVER_EXTENSIONS).toEqual([...new Set(SUPPORTED_FILE_TYPES.map((t) => t.extension))].sort());
  });

  it('alias only formats the server takes', () => {
    for (const target of Object.values(EXTENSION_ALIASES)) expect(SERVER_EXTENSIONS).toContain(target);
  });

  it.each([
    ['IMG_0001.JPG', true],
    ['photo.jpeg', true],
    ['DSC_0001.nef', true],
    ['00001.MTS', true],
    ['clip.mp4', true],
    ['notes.txt', false],
    ['DSC_0001.xmp', false],
    ['IMG_0001.JPG.json', false],
    ['song.m4a', false],
    ['README', false],
  ])('%s → %s', (name, supported) => {
    expect(isSupportedName(name)).toBe(supported);
  });
});

import { emptyMediaMetadata, mediaMetadataSchema, validate } from '@trove/proto-events';
import { contractMetadata } from './contract';
import { emptyMetadata } from './types';

describe('contractMetadata', () => {
  const uploaded = new Date('2024-01-02T03:04:05.000Z');

  it('keeps what the contract can carry and nulls the rest', () => {
    const meta = {
      ...emptyMetadata(),
      creationTime: '2024:01:01 10:00:00',
      width: 12.5,
      height: -1,
      latitude: 95,
      longitude: 10,
      cameraMake: '  ',
      focalLength: '1e-3',
      fps: '29.97',
      durationSeconds: Number.NaN,
    };
    expect(contractMetadata(meta, uploaded)).toEqual({ ...emptyMediaMetadata(uploaded.toISOString()), fps: '29.97' });
    expect(
      contractMetadata({ ...emptyMetadata(), creationTime: '2022-04-03T12:56:11.991+05:30' }, uploaded).creationTime,
    ).toBe('2022-04-03T12:56:11.991+05:30');
  });

  it('passes a full set through (text trimmed), leaves out what only the worker uses, and is valid for the contract', () => {
    const known = {
      creationTime: '2022-04-03T12:56:11+05:30',
      width: 3024,
      height: 4032,
      latitude: -33.86,
      longitude: 151.21,
      cameraMake: 'Apple',
      cameraModel: 'iPhone 12',
    };
    const camera = {
      focalLength: '4.2',
      apertureFNumber: '1.6',
      isoEquivalent: '32',
      exposureTime: '0.004',
      fps: null,
    };
    const live = { contentIdentifier: '599FEB0A-F64C-4A67-ABBE-2AE1A96A20EA' };
    const meta = {
      ...emptyMetadata(),
      ...known,
      ...camera,
      ...live,
      cameraMake: ' Apple ',
      durationSeconds: Number.POSITIVE_INFINITY,
      creationTimeSource: 'exif' as const,
      orientation: 6,
      softwareHint: '16.1',
    };
    const out = contractMetadata(meta, uploaded);
    expect(out).toEqual({ ...known, ...camera, ...live, durationSeconds: null });
    expect(validate(mediaMetadataSchema, out)).toEqual({ valid: true, errors: [] });
  });
});

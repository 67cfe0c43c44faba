import {
  decimalString,
  decodeUserComment,
  exifDateTime,
  fraction,
  isoDateTime,
  normaliseOffset,
  parseIso6709,
  validCoordinates,
} from './values';

describe('decimalString', () => {
  it.each([
    [4.2, '4.2'],
    [1.6, '1.6'],
    [640, '640'],
    [0.04, '0.04'],
    [30, '30'],
    [1.7799999713880652, '1.78'],
    [6.764999865652793, '6.765'],
    [1 / 121, '0.00826446'],
    [30000 / 1001, '29.97'],
    [1 / 8000, '0.000125'],
    [1e-7, '0.0000001'],
    [-0, '0'],
  ])('%p → %p', (value, expected) => {
    expect(decimalString(value)).toBe(expected);
  });

  it('is null for what is not a number', () => {
    expect(decimalString(null)).toBeNull();
    expect(decimalString(undefined)).toBeNull();
    expect(decimalString(NaN)).toBeNull();
    expect(decimalString(Infinity)).toBeNull();
  });
});

describe('fraction', () => {
  it('reads ffprobe frame rates', () => {
    expect(fraction('30/1')).toBe(30);
    expect(fraction('30000/1001')).toBeCloseTo(29.97, 2);
    expect(fraction('0/0')).toBeNull();
    expect(fraction('N/A')).toBeNull();
  });
});

describe('times', () => {
  it('joins EXIF date, sub-seconds and offset into ISO 8601', () => {
    expect(exifDateTime('2022:04:03 12:56:11', '991', '+05:30')).toBe('2022-04-03T12:56:11.991+05:30');
    expect(exifDateTime('2024:06:08 15:40:54', undefined, '-04:00')).toBe('2024-06-08T15:40:54-04:00');
  });

  it('takes an EXIF time without offset as UTC', () => {
    expect(exifDateTime('2020:02:29 23:59:58')).toBe('2020-02-29T23:59:58Z');
  });

  it('refuses impossible and blank EXIF dates', () => {
    expect(exifDateTime('0000:00:00 00:00:00')).toBeNull();
    expect(exifDateTime('2021:02:29 10:00:00')).toBeNull();
    expect(exifDateTime('    :  :     :  :  ')).toBeNull();
    expect(exifDateTime(12345)).toBeNull();
  });

  it('normalises ISO-like dates from XMP and QuickTime', () => {
    expect(isoDateTime('2022-04-03T12:56:11+0530')).toBe('2022-04-03T12:56:11+05:30');
    expect(isoDateTime('2023-05-06T07:08:09.000000Z')).toBe('2023-05-06T07:08:09.000Z');
    expect(isoDateTime('2024-06-08T15:40:54.82')).toBe('2024-06-08T15:40:54.820Z');
    expect(isoDateTime('1970-01-01T00:00:00.000000Z')).toBeNull();
    expect(isoDateTime('1904-01-01T00:00:00Z')).toBeNull();
  });

  it('normalises offsets', () => {
    expect(normaliseOffset('+0530')).toBe('+05:30');
    expect(normaliseOffset('-08:00')).toBe('-08:00');
    expect(normaliseOffset('+25:00')).toBeNull();
    expect(normaliseOffset('garbage')).toBeNull();
  });
});

describe('coordinates', () => {
  it('parses ISO 6709 as phones write it', () => {
    expect(parseIso6709('+19.0609+072.8269/')).toEqual({ latitude: 19.0609, longitude: 72.8269 });
    expect(parseIso6709('-33.8688-070.6667+021.825/')).toEqual({ latitude: -33.8688, longitude: -70.6667 });
    expect(parseIso6709('nonsense')).toBeNull();
  });

  it('drops the (0, 0) of devices without a fix and out-of-range values', () => {
    expect(validCoordinates(0, 0)).toBeNull();
    expect(validCoordinates(91, 10)).toBeNull();
    expect(validCoordinates(10, -181)).toBeNull();
    expect(validCoordinates(-1, 1)).toEqual({ latitude: -1, longitude: 1 });
  });
});

describe('decodeUserComment', () => {
  const comment = (code: string, text: Buffer) =>
    new Uint8Array(Buffer.concat([Buffer.from(code.padEnd(8, '\0'), 'latin1'), text]));
  it('decodes ASCII, UTF-16 in either byte order and undefined-code comments', () => {
    expect(decodeUserComment(comment('ASCII', Buffer.from('Screenshot')))).toBe('Screenshot');
    expect(decodeUserComment(comment('UNICODE', Buffer.from('Screenshot', 'utf16le')))).toBe('Screenshot');
    expect(decodeUserComment(comment('UNICODE', Buffer.from('Screenshot', 'utf16le').swap16()))).toBe('Screenshot');
    expect(decodeUserComment(comment('', Buffer.from('hello\0\0\0')))).toBe('hello');
    expect(decodeUserComment(comment('ASCII', Buffer.from('        ')))).toBeNull();
  });
});

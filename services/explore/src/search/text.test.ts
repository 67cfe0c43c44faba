import { dateWords, matchOf, normalise, terms, words } from './text';

describe('search text', () => {
  it('folds case and diacritics, also letters that do not decompose', () => {
    expect(normalise('Île-de-France')).toBe('ile-de-france');
    expect(normalise('São Paulo, MÜNCHEN')).toBe('sao paulo, munchen');
    expect(normalise('Straße Ærø Łódź')).toBe('strasse aero lodz');
  });

  it('splits on everything but letters and digits, each word once, in order', () => {
    expect(words('IMG_0543.HEIC')).toEqual(['img', '0543', 'heic']);
    expect(words("Grandma's birthday — HAPPY birthday!")).toEqual(['grandma', 's', 'birthday', 'happy']);
    expect(words('  ,;  ')).toEqual([]);
    expect(words('東京 タワー')).toEqual(['東京', 'タワー']);
  });

  it('cuts very long words so that their prefixes stay few', () => {
    const [long] = words('a'.repeat(100));
    expect(long).toHaveLength(32);
    expect(terms([long!])).toHaveLength(30);
  });

  it('indexes each word and its beginnings of 3 letters or more', () => {
    expect(terms(['mumbai', '15', 'ile'])).toEqual(['mumbai', 'mum', 'mumb', 'mumba', '15', 'ile']);
  });

  it('matches a whole word, or its beginning from 3 letters on', () => {
    expect(matchOf('mumbai', 'mumbai')).toBe('exact');
    expect(matchOf('mumb', 'mumbai')).toBe('prefix');
    expect(matchOf('mu', 'mumbai')).toBe('none');
    expect(matchOf('15', '15')).toBe('exact');
    expect(matchOf('1', '15')).toBe('none');
    expect(matchOf('mumbaii', 'mumbai')).toBe('none');
  });

  it("names the date taken in the camera's own calendar: year, English month, day", () => {
    expect(dateWords('2022-04-03T12:56:11.991+05:30')).toEqual(['2022', 'april', '3']);
    expect(dateWords('2019-12-31T23:30:00Z')).toEqual(['2019', 'december', '31']);
    expect(dateWords('not a date')).toEqual([]);
  });
});

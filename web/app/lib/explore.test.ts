import { explorePath, faceCrop, faceStyle, placeLabel } from './explore';
import { componentsParam, jobControls, progressLabel } from './jobs';
import { parseView, viewQuery } from './media-views';
import { startsWithWords, suggest } from './suggestions';
import { newUser, parseQuotaGib, quotaGib, userChange } from './user-form';
import { tileAt, tileUrl } from '../components/PlaceMap';

describe('explore entries', () => {
  it('links each kind to its page and names places with their country once', () => {
    expect(explorePath('place', 'a')).toBe('/explore/places/a');
    expect(explorePath('thing', 'b')).toBe('/explore/things/b');
    expect(explorePath('person', 'c')).toBe('/explore/people/c');
    expect(placeLabel({ name: 'Amsterdam', country: 'Netherlands' })).toBe('Amsterdam, Netherlands');
    expect(placeLabel({ name: 'Singapore', country: 'Singapore' })).toBe('Singapore');
    expect(placeLabel({ name: 'Atlantis', country: null })).toBe('Atlantis');
  });

  it('crops a face so its box fills the tile', () => {
    expect(faceCrop('/t.jpg', { x: 0.4, y: 0.2, width: 0.2, height: 0.2 })).toEqual({
      backgroundImage: 'url("/t.jpg")',
      backgroundSize: '500.00% auto',
      backgroundPosition: '50.00% 25.00%',
    });
    expect(faceCrop('/t.jpg', { x: 0, y: 0, width: 1, height: 1 }).backgroundPosition).toBe('50.00% 50.00%');
    // A face's own thumbnail is the face already.
    expect(
      faceStyle('/v1/explore/faces/f1/thumbnail?exp=1&sig=s', { x: 0.4, y: 0.2, width: 0.2, height: 0.2 }),
    ).toEqual({
      backgroundImage: 'url("/v1/explore/faces/f1/thumbnail?exp=1&sig=s")',
      backgroundSize: 'cover',
      backgroundPosition: '50% 50%',
    });
  });
});

describe('grid views of explore and search', () => {
  it('round-trips through the query the browser pages with', () => {
    const id = '00000000-0000-4000-8000-000000000001';
    for (const view of [
      { kind: 'place', id },
      { kind: 'person', id },
      { kind: 'search', q: 'pizza & co' },
    ] as const) {
      expect(parseView(new URLSearchParams(viewQuery(view)))).toEqual(view);
    }
    expect(parseView(new URLSearchParams('view=thing&id=nope'))).toBeNull();
    expect(parseView(new URLSearchParams('view=search&q=%20'))).toBeNull();
    expect(parseView(new URLSearchParams(`view=search&q=${'x'.repeat(201)}`))).toBeNull();
  });
});

describe('search suggestions', () => {
  it('match names that start with the text or whose words start with each word typed', () => {
    expect(startsWithWords('Dining Table', 'din')).toBe(true);
    expect(startsWithWords('Dining Table', 'tab')).toBe(true);
    expect(startsWithWords('Dining Table', 'ta di')).toBe(true);
    expect(startsWithWords('Dining Table', 'able')).toBe(false);
    expect(startsWithWords('Dining Table', ' ')).toBe(false);
  });

  it('keep the given order, leave out the unnamed and repeated names, and stop at eight', () => {
    const entries = [
      { kind: 'person' as const, id: '1', name: null },
      { kind: 'person' as const, id: '2', name: 'Pia' },
      { kind: 'thing' as const, id: '3', name: 'Pizza' },
      { kind: 'thing' as const, id: '4', name: 'pizza' },
      ...Array.from({ length: 10 }, (_, i) => ({ kind: 'place' as const, id: `p${i}`, name: `Pisa ${i}` })),
    ];
    const out = suggest('pi', entries);
    expect(out).toHaveLength(8);
    expect(out.slice(0, 3).map((s) => `${s.label}:${s.name}`)).toEqual(['Person:Pia', 'Thing:Pizza', 'Place:Pisa 0']);
  });
});

describe('jobs', () => {
  it('sends the ticked components in the pipeline’s order, ignoring unknown ones', () => {
    expect(componentsParam(['people', 'metadata', 'nope'])).toBe('metadata,people');
    expect(componentsParam(['nope'])).toBeNull();
  });

  it('offers only the transitions the API allows', () => {
    expect(jobControls('RUNNING')).toEqual(['PAUSED', 'STOPPED']);
    expect(jobControls('PAUSED')).toEqual(['RUNNING', 'STOPPED']);
    expect(jobControls('SCHEDULED')).toEqual(['STOPPED']);
    expect(jobControls('COMPLETED')).toEqual([]);
    expect(jobControls('STOPPED')).toEqual([]);
    expect(progressLabel({ processed: 1200, total: 5400 })).toBe('1,200 of 5,400');
  });
});

describe('the users form', () => {
  const fields = (f: Record<string, string>) => {
    const d = new FormData();
    for (const [k, v] of Object.entries(f)) d.set(k, v);
    return d;
  };
  it('checks the contract’s limits, a password being optional on edit', () => {
    expect(newUser(fields({ name: ' Al ', username: 'al_1', password: '0123456789' }))).toEqual({
      user: { name: 'Al', username: 'al_1', password: '0123456789' },
    });
    expect(newUser(fields({ name: 'Al', username: 'a', password: '0123456789' }))).toEqual({
      error: expect.stringMatching(/username/),
    });
    expect(newUser(fields({ name: '', username: 'alice', password: '0123456789' }))).toEqual({
      error: expect.stringMatching(/name/),
    });
    expect(userChange(fields({ name: 'Al', username: 'alice', password: '' }))).toEqual({
      change: { name: 'Al', username: 'alice', quotaBytes: null },
    });
    expect(userChange(fields({ name: 'Al', username: 'alice', password: '', quotaGib: '2' }))).toEqual({
      change: { name: 'Al', username: 'alice', quotaBytes: 2 * 1024 ** 3 },
    });
    expect(userChange(fields({ name: 'Al', username: 'alice', password: 'short' }))).toEqual({
      error: expect.stringMatching(/password/),
    });
  });
});

describe('storage quotas in GiB', () => {
  it('reads what the administrator types and shows what the API holds, both ways', () => {
    expect(parseQuotaGib('')).toEqual({ quotaBytes: null });
    expect(parseQuotaGib(' 50 ')).toEqual({ quotaBytes: 50 * 1024 ** 3 });
    expect(parseQuotaGib('0.1')).toEqual({ quotaBytes: Math.round(0.1 * 1024 ** 3) });
    for (const bad of ['-1', 'x', '1e3', '0x10', '1.2.3', String(2 ** 23 + 1)])
      expect(parseQuotaGib(bad)).toEqual({ error: expect.stringMatching(/^Give the storage quota in GiB/) });
    expect(quotaGib(null)).toBe('');
    expect(quotaGib(0)).toBe('0');
    expect(quotaGib(5 * 1024 ** 3)).toBe('5');
    expect(quotaGib(1.5 * 1024 ** 3 + 1)).toBe('1.5');
    for (const text of ['50', '0.25', '1234.5'])
      expect(quotaGib((parseQuotaGib(text) as { quotaBytes: number }).quotaBytes)).toBe(text);
  });
});

describe('the place map', () => {
  it('finds the tile under a position and fills the template', () => {
    const at = tileAt(0, 0, 1);
    expect(at).toEqual({ x: 1, y: 1 });
    const ams = tileAt(52.37, 4.89, 11);
    expect([Math.floor(ams.x), Math.floor(ams.y)]).toEqual([1051, 673]);
    expect(tileUrl('https://{s}.tiles.example/{z}/{x}/{y}.png', 11, 1051, 673)).toBe(
      'https://a.tiles.example/11/1051/673.png',
    );
  });
});

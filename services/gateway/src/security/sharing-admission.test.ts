import { AppError, notFound } from '@trove/kit';
import { SharingAdmission } from './sharing-admission';

describe('SharingAdmission (found and missed lookups per visitor)', () => {
  let now = 1_700_000_000_000;
  const clock = () => now;
  const found = () => Promise.resolve('album');
  const missing = () => Promise.reject(notFound('shared link not found'));
  const status = (p: Promise<unknown>) =>
    p.then(
      () => 'ok',
      (err: unknown) => (err instanceof AppError ? err.code : 'other'),
    );

  beforeEach(() => {
    now = 1_700_000_000_000;
  });

  it("lets misses spend only the visitor's own miss bucket: their real albums and everyone else's still open", async () => {
    const admission = new SharingAdmission({ foundPerWindow: 3, missedPerWindow: 5, now: clock });
    for (let i = 0; i < 5; i++) expect(await status(admission.lookup('attacker', missing))).toBe('NOT_FOUND');
    // The miss bucket is empty: the attacker is refused, lookups included.
    expect(await status(admission.lookup('attacker', missing))).toBe('TOO_MANY_REQUESTS');
    expect(await status(admission.lookup('attacker', found))).toBe('TOO_MANY_REQUESTS');
    // Someone else is untouched, with their whole found bucket.
    for (let i = 0; i < 3; i++) expect(await status(admission.lookup('visitor', found))).toBe('ok');
    expect(await status(admission.lookup('visitor', found))).toBe('TOO_MANY_REQUESTS');
  });

  it('does not charge the found bucket for misses, nor the miss bucket for hits', async () => {
    const admission = new SharingAdmission({ foundPerWindow: 2, missedPerWindow: 2, now: clock });
    expect(await status(admission.lookup('a', missing))).toBe('NOT_FOUND');
    expect(await status(admission.lookup('a', found))).toBe('ok');
    expect(await status(admission.lookup('a', found))).toBe('ok');
    expect(await status(admission.lookup('a', found))).toBe('TOO_MANY_REQUESTS');
    expect(await status(admission.lookup('a', missing))).toBe('TOO_MANY_REQUESTS');
    // One window later both buckets are full again.
    now += 60_000;
    expect(await status(admission.lookup('a', missing))).toBe('NOT_FOUND');
    expect(await status(admission.lookup('a', found))).toBe('ok');
    expect(await status(admission.lookup('a', found))).toBe('ok');
  });

  it('charges a failure other than 404 like a hit (it is not a guess), and passes the error on', async () => {
    const admission = new SharingAdmission({ foundPerWindow: 1, missedPerWindow: 10, now: clock });
    expect(await status(admission.lookup('a', () => Promise.reject(new AppError('UNAVAILABLE', 'down'))))).toBe(
      'UNAVAILABLE',
    );
    expect(await status(admission.lookup('a', found))).toBe('TOO_MANY_REQUESTS');
  });

  it('never lets concurrent lookups spend more than the found bucket holds', async () => {
    const admission = new SharingAdmission({ foundPerWindow: 4, missedPerWindow: 100, now: clock });
    const results = await Promise.all(Array.from({ length: 10 }, () => status(admission.lookup('a', found))));
    expect(results.filter((r) => r === 'ok')).toHaveLength(4);
  });
});

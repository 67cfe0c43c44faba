import { ACTIVE, TRANSITIONS, allowed, isFinal } from './transitions';
import type { JobStatus } from './transitions';

const STATUSES: JobStatus[] = ['SCHEDULED', 'RUNNING', 'PAUSED', 'COMPLETED', 'STOPPED'];

describe('job status transitions', () => {
  it('the user may pause, resume and stop; the runner starts and completes; nothing else', () => {
    const table = STATUSES.flatMap((from) =>
      STATUSES.flatMap((to) =>
        (['user', 'runner'] as const).filter((by) => allowed(from, to, by)).map((by) => `${from}→${to} (${by})`),
      ),
    );
    expect(table).toEqual([
      'SCHEDULED→RUNNING (runner)',
      'SCHEDULED→STOPPED (user)',
      'RUNNING→PAUSED (user)',
      'RUNNING→COMPLETED (runner)',
      'RUNNING→STOPPED (user)',
      'PAUSED→RUNNING (user)',
      'PAUSED→STOPPED (user)',
    ]);
    expect(TRANSITIONS).toHaveLength(table.length);
  });

  it('the same status again, and anything out of COMPLETED or STOPPED, is refused', () => {
    for (const s of STATUSES) expect(allowed(s, s, 'user') || allowed(s, s, 'runner')).toBe(false);
    for (const from of ['COMPLETED', 'STOPPED'] as const)
      for (const to of STATUSES) expect(allowed(from, to, 'user')).toBe(false);
    expect(allowed('SCHEDULED', 'RUNNING', 'user')).toBe(false);
    expect(allowed('RUNNING', 'COMPLETED', 'user')).toBe(false);
  });

  it('SCHEDULED, RUNNING and PAUSED hold the active slot; COMPLETED and STOPPED are final', () => {
    expect(ACTIVE).toEqual(['SCHEDULED', 'RUNNING', 'PAUSED']);
    expect(STATUSES.filter(isFinal)).toEqual(['COMPLETED', 'STOPPED']);
  });
});

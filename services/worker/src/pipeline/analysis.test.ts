/**
 * The analysis steps' failure policy, the same for things and faces: a picture the detector fails
 * on costs the item that analysis only; a model that cannot be loaded is a tool error the queue
 * retries. Each run is timed in the component histogram with its outcome.
 */
import { componentDuration } from '@trove/kit';
import type { Logger } from '@trove/kit';
import { MediaError } from '../components';
import type { Bitmap } from '../components';
import { sharedModel } from '../components/vision';
import { findFaces } from './faces';
import { findThings } from './things';
import { photoItem, silentLog } from './work-item.fake';

const log = silentLog;
const item = photoItem();

/** A detector standing in for the component's own (which each step takes as `detect`): it never answers. */
type Detector = (picture: Bitmap, options: { log?: Logger }) => Promise<never>;

describe.each([
  // The things step also answers where each object lies: what it found is its things.
  [
    'things',
    (picture: Bitmap, detect?: Detector) =>
      findThings(log, item, picture, detect && { detect }).then((seen) => seen.things),
  ],
  ['faces', (picture: Bitmap, detect?: Detector) => findFaces(log, item, picture, detect && { detect })],
])('%s step', (component, step) => {
  /** How many runs of that component the histogram has counted with that outcome. */
  async function runs(outcome: string): Promise<number> {
    const { values } = await componentDuration.get();
    return (
      values.find(
        (v) => v.metricName?.endsWith('_count') && v.labels.component === component && v.labels.outcome === outcome,
      )?.value ?? 0
    );
  }

  it('a plain picture: nothing found (none here), timed as ok', async () => {
    const before = await runs('ok');
    const grey = { data: Buffer.alloc(64 * 48 * 3, 128), width: 64, height: 48, channels: 3 };
    expect(await step(grey)).toEqual([]);
    expect(await runs('ok')).toBe(before + 1);
  }, 60_000);

  it('a picture the detector fails on (its pixels do not match its size): nothing found, the item goes on', async () => {
    const before = await runs('error');
    const broken = { data: Buffer.alloc(10), width: 640, height: 480, channels: 3 };
    expect(await step(broken)).toEqual([]);
    expect(await runs('error')).toBe(before + 1);
  });

  it('a model that cannot be loaded: a tool error, thrown for the queue to retry the item', async () => {
    const before = await runs('tool');
    const missing = sharedModel('missing', { jsonPath: '/nonexistent/missing.json' });
    const grey = { data: Buffer.alloc(12), width: 2, height: 2, channels: 3 };
    const loadOnly: Detector = (_picture, { log }) =>
      missing(log).then(() => {
        throw new Error('a missing model loaded');
      });
    const err = (await step(grey, loadOnly).catch((e: unknown) => e)) as MediaError;
    expect(err).toBeInstanceOf(MediaError);
    expect(err.kind).toBe('tool');
    expect(err.message).toMatch(/^the missing model cannot be loaded: .*ENOENT/);
    expect(await runs('tool')).toBe(before + 1);
  });
});

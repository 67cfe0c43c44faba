import { completeFeatures } from '@trove/proto-events';
import type { FeatureSet } from '@trove/proto-events';
import { RecentFeatures } from './recent-features';

/** A source counting the lookups per user, answering what `answers` holds at the time. */
function countingSource(answers: Map<string, FeatureSet | Error>) {
  const asked: string[] = [];
  return {
    asked,
    of: (userId: string) => {
      asked.push(userId);
      const answer = answers.get(userId);
      return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer ?? completeFeatures({}));
    },
  };
}

describe('features of recent uploads', () => {
  it('asks once per user within the time to live, again after it, and each user apart', async () => {
    const answers = new Map<string, FeatureSet | Error>([['ann', completeFeatures({ places: false })]]);
    const source = countingSource(answers);
    let now = 0;
    const features = new RecentFeatures(source, 2000, () => now);
    await expect(features.of('ann')).resolves.toMatchObject({ places: false });
    answers.set('ann', completeFeatures({ places: true }));
    now = 1999;
    await expect(features.of('ann')).resolves.toMatchObject({ places: false });
    await expect(features.of('bob')).resolves.toMatchObject({ places: true });
    expect(source.asked).toEqual(['ann', 'bob']);
    now = 2000;
    await expect(features.of('ann')).resolves.toMatchObject({ places: true });
    expect(source.asked).toEqual(['ann', 'bob', 'ann']);
  });

  it('keeps no failed lookup: the next upload asks again', async () => {
    const answers = new Map<string, FeatureSet | Error>([['ann', new Error('auth is unavailable')]]);
    const source = countingSource(answers);
    const features = new RecentFeatures(source, 2000, () => 0);
    await expect(features.of('ann')).rejects.toThrow('auth is unavailable');
    answers.delete('ann');
    await expect(features.of('ann')).resolves.toMatchObject({ places: true });
    expect(source.asked).toEqual(['ann', 'ann']);
  });
});

import { ConfigError, loadConfig } from '@trove/kit';
import { DEFAULT_FACES_MIN_SCORE, DEFAULT_FACES_MIN_SIZE, DEFAULT_THINGS_MIN_SCORE } from '../components';
import { ffmpegThreads, itemMemoryBytes } from '../components/limits';
import { limitsOf, workerSpec } from './config';

const thingsMinScore = (value?: string) =>
  loadConfig(
    { thingsMinScore: workerSpec.thingsMinScore },
    value === undefined ? {} : { TROVE_THINGS_MIN_SCORE: value },
  ).thingsMinScore;

describe('TROVE_THINGS_MIN_SCORE', () => {
  it('defaults to 0.5 and takes a decimal from 0 to 1', () => {
    expect(thingsMinScore()).toBe(DEFAULT_THINGS_MIN_SCORE);
    expect(DEFAULT_THINGS_MIN_SCORE).toBe(0.35);
    expect(thingsMinScore('0.7')).toBe(0.7);
    expect(thingsMinScore('.3')).toBe(0.3);
    expect(thingsMinScore('1')).toBe(1);
    expect(thingsMinScore('0')).toBe(0);
  });

  it.each(['1.5', '-0.1', 'high', '0.5.1', '1e-1'])('refuses %s, naming the variable', (value) => {
    expect(() => thingsMinScore(value)).toThrow(ConfigError);
    expect(() => thingsMinScore(value)).toThrow(`TROVE_THINGS_MIN_SCORE must be a number from 0 to 1, got "${value}"`);
  });
});

describe('TROVE_FACES_MIN_SCORE and TROVE_FACES_MIN_SIZE', () => {
  const faces = (env: Record<string, string> = {}) =>
    loadConfig({ minScore: workerSpec.facesMinScore, minSize: workerSpec.facesMinSize }, env);

  it('default to 0.7 and 16 px; take a decimal from 0 to 1 and a size from 8 to 2048 px', () => {
    expect(faces()).toEqual({ minScore: DEFAULT_FACES_MIN_SCORE, minSize: DEFAULT_FACES_MIN_SIZE });
    expect([DEFAULT_FACES_MIN_SCORE, DEFAULT_FACES_MIN_SIZE]).toEqual([0.7, 16]);
    expect(faces({ TROVE_FACES_MIN_SCORE: '0.85', TROVE_FACES_MIN_SIZE: '32' })).toEqual({
      minScore: 0.85,
      minSize: 32,
    });
  });

  it('refuse what is out of range, naming the variable', () => {
    expect(() => faces({ TROVE_FACES_MIN_SCORE: '2' })).toThrow(
      'TROVE_FACES_MIN_SCORE must be a number from 0 to 1, got "2"',
    );
    expect(() => faces({ TROVE_FACES_MIN_SIZE: '4' })).toThrow(/TROVE_FACES_MIN_SIZE/);
    expect(() => faces({ TROVE_FACES_MIN_SIZE: 'big' })).toThrow(ConfigError);
  });
});

describe('limitsOf', () => {
  it('keeps the configured limits as they are, shares the memory over the items at once, and drops the rest', () => {
    const configured = {
      maxImageBytes: 1,
      probeTimeoutSeconds: 2,
      frameTimeoutSeconds: 3,
      transcodeTimeoutSeconds: 4,
      transcodeMinSeconds: 5,
      transcodeSecondsPer1080pSecond: 6,
    };
    const config = { ...configured, memoryMib: 2560, concurrency: 2, thingsMinScore: 0.5 };
    expect(limitsOf(config)).toEqual({
      ...configured,
      itemMemoryBytes: itemMemoryBytes(2560, 2),
      ffmpegThreads: ffmpegThreads(2),
    });
    expect(itemMemoryBytes(2560, 2)).toBe(1024 * 1024 ** 2);
  });
});

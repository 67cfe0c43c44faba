import { ConfigError, loadConfig } from '@trove/kit';
import { DEFAULT_THINGS_MIN_SCORE } from '../components';
import { workerSpec } from './config';

const thingsMinScore = (value?: string) => loadConfig({ thingsMinScore: workerSpec.thingsMinScore }, value === undefined ? {} : { TROVE_THINGS_MIN_SCORE: value }).thingsMinScore;

describe('TROVE_THINGS_MIN_SCORE', () => {
  it('defaults to 0.55 and takes a decimal from 0 to 1', () => {
    expect(thingsMinScore()).toBe(DEFAULT_THINGS_MIN_SCORE);
    expect(DEFAULT_THINGS_MIN_SCORE).toBe(0.55);
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

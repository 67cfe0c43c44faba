import { API_KEY_NAME_MAX, apiKeyName, keyCreated, keyLastUsed } from './api-keys';

describe('API keys on the settings page', () => {
  it('takes a trimmed name of 1 to 100 characters, nothing else', () => {
    expect(apiKeyName('  laptop ')).toBe('laptop');
    expect(apiKeyName('x'.repeat(API_KEY_NAME_MAX))).toBe('x'.repeat(100));
    expect(apiKeyName('x'.repeat(API_KEY_NAME_MAX + 1))).toBeNull();
    expect(apiKeyName('   ')).toBeNull();
    expect(apiKeyName('')).toBeNull();
    expect(apiKeyName(null)).toBeNull();
    expect(apiKeyName(new File([], 'laptop'))).toBeNull();
  });

  it('reads times in UTC, the same on the server and in any browser', () => {
    expect(keyCreated('2024-06-01T23:30:00Z')).toBe('1 Jun 2024');
    expect(keyCreated('2024-06-01T00:10:00+02:00')).toBe('31 May 2024');
    expect(keyLastUsed('2024-06-02T08:30:00Z')).toBe('2 Jun 2024, 08:30 UTC');
    expect(keyLastUsed('2024-06-02T00:05:00Z')).toBe('2 Jun 2024, 00:05 UTC');
    expect(keyLastUsed(null)).toBe('Never');
    expect(keyCreated('not a date')).toBe('');
    expect(keyLastUsed('not a date')).toBe('');
  });
});

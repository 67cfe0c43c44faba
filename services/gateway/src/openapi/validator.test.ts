import { createRequire } from 'node:module';
import { openApiValidator } from './validator';

type Compile = (path: string, options?: { sensitive?: boolean; strict?: boolean }) => { regexp: RegExp };
const validatorsPathToRegexp = (): Compile =>
  (createRequire(require.resolve('express-openapi-validator'))('path-to-regexp') as { pathToRegexp: Compile })
    .pathToRegexp;

describe('openApiValidator', () => {
  it('remembers the route patterns the validator compiles on every request, by pattern and options', () => {
    openApiValidator({ validateResponses: false });
    openApiValidator({ validateResponses: true }); // a second app in the same process wraps nothing twice
    const compile = validatorsPathToRegexp();
    const first = compile('/v1/mediaItems/:id', { sensitive: false, strict: false });
    expect(compile('/v1/mediaItems/:id', { sensitive: false, strict: false })).toBe(first);
    expect(first.regexp.flags).not.toContain('g'); // shared between requests: it must keep no state
    expect(first.regexp.exec('/v1/mediaItems/abc')?.[1]).toBe('abc');
    expect(first.regexp.exec('/v1/albums/abc')).toBeNull();
    const sensitive = compile('/v1/mediaItems/:id', { sensitive: true, strict: false });
    expect(sensitive).not.toBe(first);
    expect(sensitive.regexp.exec('/V1/MEDIAITEMS/abc')).toBeNull();
  });
});

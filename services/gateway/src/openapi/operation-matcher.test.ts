import { listOperations } from '@trove/openapi';
import { OperationMatcher } from './operation-matcher';

const ID = '3f1e7c2a-9b4d-4e8f-a1c2-5d6e7f8a9b0c';

describe('operation matcher', () => {
  const matcher = new OperationMatcher(listOperations());

  it('finds the declared operation and its security', () => {
    expect(matcher.match('GET', '/version')).toMatchObject({ operationId: 'getVersion', security: 'none' });
    expect(matcher.match('GET', '/v1/users')).toMatchObject({ operationId: 'listUsers', security: 'basic' });
    expect(matcher.match('DELETE', `/v1/users/${ID}`)).toMatchObject({ operationId: 'deleteUser', security: 'basic' });
    expect(matcher.match('GET', `/v1/mediaItems/${ID}/thumbnail`)).toMatchObject({ security: 'bearerOrSigned' });
    expect(matcher.match('GET', '/v1/yearsAgo/0624/mediaItems')).toMatchObject({
      operationId: 'listYearsAgoMediaItems',
    });
    expect(matcher.match('HEAD', '/v1/features')).toMatchObject({ operationId: 'getFeatures' });
  });

  it('matches every spelling Express would route: any case, trailing slash', () => {
    expect(matcher.match('get', '/V1/USERS')).toMatchObject({ operationId: 'listUsers' });
    expect(matcher.match('GET', '/v1/users/')).toMatchObject({ operationId: 'listUsers' });
    expect(matcher.match('GET', '/v1/features/')).toMatchObject({ operationId: 'getFeatures' });
  });

  it('matches any path segment for a parameter (the validator judges its format)', () => {
    expect(matcher.match('GET', '/v1/users/not-a-uuid')).toMatchObject({ operationId: 'getUser' });
  });

  it('finds nothing for undeclared paths or methods', () => {
    expect(matcher.match('GET', '/v1/nope')).toBeUndefined();
    expect(matcher.match('PATCH', '/v1/users')).toBeUndefined();
    expect(matcher.match('GET', `/v1/users/${ID}/extra`)).toBeUndefined();
    expect(matcher.match('GET', '/v1/users//')).toBeUndefined();
  });
});

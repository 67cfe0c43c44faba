import { isAppError } from '@trove/kit';
import { requestedChanges, schemaFields } from './schema-fields';

describe('schema fields', () => {
  it('keeps only what the schema declares, in its order; null stays, undefined goes', () => {
    const body = { hidden: true, extra: 'never forwarded', description: null, name: undefined, coverMediaItemId: 'c' };
    const picked = schemaFields('AlbumUpdateRequest', body);
    expect(picked).toEqual({ description: null, coverMediaItemId: 'c', hidden: true });
    expect(Object.keys(picked)).toEqual(['description', 'coverMediaItemId', 'hidden']);
  });

  it('answers 400 naming the fields when an update request changes none of them', () => {
    expect(requestedChanges('UserUpdateRequest', { password: 'a-long-passphrase' })).toEqual({
      password: 'a-long-passphrase',
    });
    let thrown: unknown;
    try {
      requestedChanges('UserUpdateRequest', { unknown: 1 } as never);
    } catch (err) {
      thrown = err;
    }
    expect(isAppError(thrown) && thrown.code).toBe('BAD_REQUEST');
    expect((thrown as Error).message).toBe(
      'request/body must contain at least one of name, username, password, features, quotaBytes',
    );
  });
});

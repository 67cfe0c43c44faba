import { USER_FEATURES, completeFeatures } from '@trove/proto-events';
import { featureGateOf, loadOpenApi } from '@trove/openapi';
import { gatesFromContract } from './gate';
import { decodeFeatures, globallyOff, permittedComponents } from './user-features';

describe('user features in the gateway', () => {
  it('takes features as an object or as a string holding one; anything else, an unknown key or a non-boolean is a bad request', () => {
    expect(decodeFeatures(undefined)).toBeUndefined();
    expect(decodeFeatures({ places: false })).toEqual({ places: false });
    expect(decodeFeatures('{"explore":false,"things":true}')).toEqual({ explore: false, things: true });
    for (const bad of [
      '{"telepathy":true}',
      '{"places":"no"}',
      'not json',
      '[]',
      '"places"',
      42,
      { albums: 1 },
      { nope: false },
    ]) {
      expect(() => decodeFeatures(bad)).toThrow(expect.objectContaining({ code: 'BAD_REQUEST' }));
    }
  });

  it('places, things and faces run for an upload or a job only with explore and their own feature', () => {
    const all = completeFeatures({});
    expect(permittedComponents(all)).toEqual(['metadata', 'previews', 'places', 'things', 'faces', 'ocr']);
    expect(permittedComponents({ ...all, explore: false })).toEqual(['metadata', 'previews', 'ocr']);
    expect(permittedComponents({ ...all, things: false, people: false })).toEqual([
      'metadata',
      'previews',
      'places',
      'ocr',
    ]);
  });

  it('the global settings switch features off for everybody; an unknown name stops the gateway', () => {
    expect(
      [...globallyOff({ featuresOff: ['jobs', 'people'], featureFavourites: false, featureHidden: true })].sort(),
    ).toEqual(['favourites', 'jobs', 'people']);
    expect(() => globallyOff({ featuresOff: ['telepathy'], featureFavourites: true, featureHidden: true })).toThrow(
      /TROVE_FEATURES_OFF: unknown feature "telepathy"/,
    );
  });

  it('gates come from openapi.yaml: every feature but sharing gates its calls, and each gated call that answers 403 declares it', () => {
    const paths = loadOpenApi().paths as Record<
      string,
      Record<string, { operationId?: string; responses?: Record<string, unknown> }>
    >;
    const responsesOf = (id: string) =>
      Object.values(paths)
        .flatMap((item) => Object.values(item))
        .find((op) => op?.operationId === id)?.responses ?? {};
    const gates = gatesFromContract();
    const gated = new Set([...gates.values()].flatMap((g) => g.needs));
    expect(USER_FEATURES.filter((f) => !gated.has(f))).toEqual(['sharing']); // sharing is decided by the body (shared: true)
    expect(gates.get('listThings')).toEqual({ needs: ['explore', 'things'], whenOff: 'forbidden' });
    expect(gates.get('listMediaItemAlbums')).toEqual({ needs: ['albums'], whenOff: 'empty' });
    expect(gates.has('getSharedAlbum')).toBe(false);
    for (const [id, gate] of gates) {
      if (gate.whenOff === 'forbidden')
        expect([id, Object.keys(responsesOf(id))]).toEqual([id, expect.arrayContaining(['403'])]);
    }
  });

  it('a contract naming an unknown feature, or a malformed x-trove-feature, stops the gateway at start', () => {
    const op = { method: 'get', path: '/v1/x', operationId: 'listAlbums', security: 'bearer' as const };
    expect(() => gatesFromContract([{ ...op, feature: { needs: ['telepathy'], whenOff: 'forbidden' } }])).toThrow(
      /listAlbums needs unknown feature "telepathy"/,
    );
    expect(() => featureGateOf({ 'x-trove-feature': [] }, 'GET /v1/x')).toThrow(/non-empty list/);
    expect(() => featureGateOf({ 'x-trove-feature': 'albums', 'x-trove-feature-off': 'teapot' }, 'GET /v1/x')).toThrow(
      /forbidden or empty/,
    );
    expect(() => featureGateOf({ 'x-trove-feature-off': 'empty' }, 'GET /v1/x')).toThrow(/without x-trove-feature/);
    expect(featureGateOf({ 'x-trove-feature': ['explore', 'places'] }, 'GET /v1/x')).toEqual({
      needs: ['explore', 'places'],
      whenOff: 'forbidden',
    });
  });
});

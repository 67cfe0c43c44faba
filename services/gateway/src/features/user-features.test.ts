import { completeFeatures } from '@trove/proto-events';
import { listOperations, loadOpenApi } from '@trove/openapi';
import { GATES } from './gate';
import { decodeFeatures, globallyOff, permittedComponents } from './user-features';

describe('user features in the gateway', () => {
  it('takes features as an object or as a string holding one; anything else, an unknown key or a non-boolean is a bad request', () => {
    expect(decodeFeatures(undefined)).toBeUndefined();
    expect(decodeFeatures({ places: false })).toEqual({ places: false });
    expect(decodeFeatures('{"explore":false,"things":true}')).toEqual({ explore: false, things: true });
    for (const bad of ['{"telepathy":true}', '{"places":"no"}', 'not json', '[]', '"places"', 42, { albums: 1 }, { nope: false }]) {
      expect(() => decodeFeatures(bad)).toThrow(expect.objectContaining({ code: 'BAD_REQUEST' }));
    }
  });

  it('places, things and faces run for an upload or a job only with explore and their own feature', () => {
    const all = completeFeatures({});
    expect(permittedComponents(all)).toEqual(['metadata', 'previews', 'places', 'things', 'faces', 'ocr']);
    expect(permittedComponents({ ...all, explore: false })).toEqual(['metadata', 'previews', 'ocr']);
    expect(permittedComponents({ ...all, things: false, people: false })).toEqual(['metadata', 'previews', 'places', 'ocr']);
  });

  it('the global settings switch features off for everybody; an unknown name stops the gateway', () => {
    expect([...globallyOff({ featuresOff: ['jobs', 'people'], featureFavourites: false, featureHidden: true })].sort()).toEqual(['favourites', 'jobs', 'people']);
    expect(() => globallyOff({ featuresOff: ['telepathy'], featureFavourites: true, featureHidden: true })).toThrow(/TROVE_FEATURES_OFF: unknown feature "telepathy"/);
  });

  it('every gated call exists in openapi.yaml, and each that answers 403 declares it', () => {
    const operations = new Map(listOperations().map((o) => [o.operationId, o]));
    const paths = loadOpenApi().paths as Record<string, Record<string, { operationId?: string; responses?: Record<string, unknown> }>>;
    const responsesOf = (id: string) => Object.values(paths).flatMap((item) => Object.values(item)).find((op) => op?.operationId === id)?.responses ?? {};
    for (const [id, gate] of Object.entries(GATES)) {
      expect(operations.has(id)).toBe(true);
      if (gate?.whenOff === 'forbidden') expect([id, Object.keys(responsesOf(id))]).toEqual([id, expect.arrayContaining(['403'])]);
    }
  });
});

import { routeLabel } from './metrics.server';

describe('the route label of web requests', () => {
  it('names kinds of requests, never ids', () => {
    expect(routeLabel('/assets/entry.client-AbC123.js')).toBe('/assets');
    expect(routeLabel('/healthz')).toBe('/healthz');
    expect(routeLabel('/v1/mediaItems/3f1e7c2a-9b4d-4e8f-a1c2-5d6e7f8a9b0c/thumbnail')).toBe('/v1 (content)');
    expect(routeLabel('/api/years-ago')).toBe('/api/years-ago');
    expect(routeLabel('/api/items/3f1e7c2a')).toBe('/api/items');
    expect(routeLabel('/share/3f1e7c2a-9b4d-4e8f-a1c2-5d6e7f8a9b0c')).toBe('/share');
    expect(routeLabel('/albums/3f1e7c2a-9b4d-4e8f-a1c2-5d6e7f8a9b0c')).toBe('page');
    expect(routeLabel('/login')).toBe('/login');
  });
});

import { WORKER_COMPONENTS } from '@trove/proto-events';
import { planOf } from './components';

const ALL = [...WORKER_COMPONENTS];

describe('job components', () => {
  it("takes names and aliases, in the worker's order, each once", () => {
    expect(planOf('places,classification', ALL)).toEqual({ work: ['places', 'things'], search: false });
    expect(planOf('people,faces,things,metadata', ALL)).toEqual({
      work: ['metadata', 'things', 'faces'],
      search: false,
    });
    expect(planOf('search', ALL)).toEqual({ work: [], search: true });
    expect(planOf('ocr,previews,search', ALL)).toEqual({ work: ['previews', 'ocr'], search: true });
  });

  it('unknown or empty names are a bad request', () => {
    for (const bad of ['', 'places,', 'places,,things', 'telepathy', 'places,category']) {
      expect(() => planOf(bad, ALL)).toThrow(expect.objectContaining({ code: 'BAD_REQUEST' }));
    }
  });

  it("keeps only the worker components the owner's features permit", () => {
    expect(planOf('places,things,people,metadata', ['metadata', 'previews', 'things'])).toEqual({
      work: ['metadata', 'things'],
      search: false,
    });
  });
});

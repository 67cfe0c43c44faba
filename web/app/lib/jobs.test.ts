import { loadOpenApi } from '@trove/openapi';
import { JOB_COMPONENTS, componentsParam } from './jobs';

/** The pattern openapi.yaml gives `JobCreateRequest.components`: what the API accepts. */
function contractPattern(): RegExp {
  const schemas = (
    loadOpenApi().components as { schemas: Record<string, { properties: Record<string, { pattern: string }> }> }
  ).schemas;
  return new RegExp(schemas.JobCreateRequest.properties.components.pattern);
}

describe('the jobs page components', () => {
  it('offers only names the API accepts, alone and all together', () => {
    const pattern = contractPattern();
    expect(JOB_COMPONENTS.filter((c) => !pattern.test(c))).toEqual([]);
    expect(pattern.test(componentsParam([...JOB_COMPONENTS]) ?? '')).toBe(true);
    expect(pattern.test('category')).toBe(false); // the pattern is a real check
  });

  it('sends the ticked components in the order they run, or nothing', () => {
    expect(componentsParam(['ocr', 'metadata'])).toBe('metadata,ocr');
    expect(componentsParam([])).toBeNull();
  });
});

import { faceCorrection } from './person-form';

const form = (fields: Record<string, string>) => {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.set(k, v);
  return f;
};
const PERSON = '9a0b1c2d-3e4f-4a5b-8c6d-7e8f9a0b1c2d';
const OTHER = '7c8d9e0f-1a2b-4c3d-9e4f-5a6b7c8d9e0f';
const FACE = '5b6c7d8e-9f0a-4b1c-8d2e-3f4a5b6c7d8e';

describe("the person page's face corrections", () => {
  it('reads "not this person" and "move to" with their ids', () => {
    expect(faceCorrection(form({ intent: 'not-person', face: FACE }), PERSON)).toEqual({
      kind: 'remove',
      faceId: FACE,
    });
    expect(faceCorrection(form({ intent: 'move-face', face: FACE, to: OTHER }), PERSON)).toEqual({
      kind: 'move',
      faceId: FACE,
      personId: OTHER,
    });
  });

  it('refuses a missing or malformed id, a move to the same person and any other intent', () => {
    expect(faceCorrection(form({ intent: 'not-person', face: 'x' }), PERSON)).toBeNull();
    expect(faceCorrection(form({ intent: 'move-face', face: FACE }), PERSON)).toBeNull();
    expect(faceCorrection(form({ intent: 'move-face', face: FACE, to: PERSON }), PERSON)).toBeNull();
    expect(faceCorrection(form({ intent: 'name', face: FACE, to: OTHER }), PERSON)).toBeNull();
  });
});

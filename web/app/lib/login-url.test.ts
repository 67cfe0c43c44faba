import { loginUrl } from './login-url';

describe('loginUrl', () => {
  it('sends the home page to the bare login page', () => {
    expect(loginUrl('/')).toBe('/login');
  });

  it('keeps any other page, with its query, to come back to', () => {
    expect(loginUrl('/favourites')).toBe('/login?redirectTo=%2Ffavourites');
    expect(loginUrl('/search?q=cat&type=photo')).toBe('/login?redirectTo=%2Fsearch%3Fq%3Dcat%26type%3Dphoto');
  });
});

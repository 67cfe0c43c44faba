import { UniqueNames, attachment } from './album-zip';

describe('names inside an album ZIP', () => {
  it('are unique without case: a name met again gets (2), (3)… before its extension', () => {
    const names = new UniqueNames();
    expect(
      ['IMG_1.jpg', 'IMG_1.jpg', 'img_1.JPG', 'IMG_1 (2).jpg', 'README', 'README'].map((n) => names.take(n)),
    ).toEqual(['IMG_1.jpg', 'IMG_1 (2).jpg', 'img_1 (3).JPG', 'IMG_1 (2) (2).jpg', 'README', 'README (2)']);
  });

  it('never point outside the folder: paths and control characters are dropped', () => {
    const names = new UniqueNames();
    expect(names.take('../../etc/passwd')).toBe('passwd');
    expect(names.take('..\\..\\boot.ini')).toBe('boot.ini');
    expect(names.take('a\u0000b\nc.jpg')).toBe('abc.jpg');
    expect(names.take('..')).toBe('file');
    expect(names.take('')).toBe('file (2)');
  });

  it('the ZIP is named in UTF-8 (filename*) with an ASCII fallback (filename)', () => {
    expect(attachment('Été à "Lyon" (1).zip')).toBe(
      `attachment; filename="_t_ _ _Lyon_ (1).zip"; filename*=UTF-8''%C3%89t%C3%A9%20%C3%A0%20%22Lyon%22%20%281%29.zip`,
    );
  });
});

/**
 * Albums shared with household members, in a real browser against the whole of Trove: the owner
 * adds a user on the album's Members panel; that user finds the album under "Shared with you" with
 * the owner's name and their role, opens it and sees its photo load (a content URL scoped to the
 * album), and leaves it. Each sees the other's photos read-only: no action is offered that the API
 * would refuse (another user's item is not theirs to favourite, hide, trash, describe or make the cover).
 */
import { ok } from '../support/api';
import { DESKTOP, PHONE, albumWithMember, eventually, nav, shot, webAppForSuite, tiles } from './fixtures';

const web = webAppForSuite();

describe('albums shared with members (browser)', () => {
  /** The owner's album holding her JPEG, shared with a member (who owns a PNG) as contributor. */
  const ownerWithContributor = async (name: string) => {
    const owner = await web().session({ upload: ['jpeg'] });
    const member = await web().session({ upload: ['png'] });
    const id = await albumWithMember(owner.user, name, [owner.items.jpeg!], member.user, 'contributor');
    return { owner, member, album: { id }, path: { params: { path: { id } } } };
  };

  it('the owner adds a member on the album page; the member sees it under Shared with you, opens it and leaves it', async () => {
    const owner = await web().session({ upload: ['jpeg'] });
    const album = await ok(owner.user.api.POST('/v1/albums', { body: { name: 'Family holiday' } }), 201);
    await ok(
      owner.user.api.POST('/v1/albums/{id}/mediaItems', {
        params: { path: { id: album.id } },
        body: { mediaItems: [owner.items.jpeg!.id] },
      }),
      204,
    );
    const member = await web().session({ viewport: PHONE, phone: true });

    await owner.page.goto(`${web().origin}/albums/${album.id}`);
    const panel = owner.page.getByRole('region', { name: 'Members' });
    await panel.getByLabel('User name').fill('nobody-here');
    await panel.getByRole('button', { name: 'Add member' }).click();
    await expect(panel.getByRole('alert').textContent()).resolves.toContain('No user is called');
    await panel.getByLabel('User name').fill(member.user.username);
    await panel.getByLabel('Role').selectOption('contributor');
    await panel.getByRole('button', { name: 'Add member' }).click();
    await panel.getByRole('list', { name: 'Members' }).getByText(`@${member.user.username}`).waitFor();
    await expect(panel.getByRole('list', { name: 'Members' }).textContent()).resolves.toContain('contributor');
    await owner.page.setViewportSize(DESKTOP);
    await shot(owner.page, 'album-members-desktop');

    const p = member.page;
    await nav(p, 'Albums', '/albums');
    const shared = p.getByRole('list', { name: 'Shared with you' });
    await expect(shared.textContent()).resolves.toContain('Family holiday');
    await expect(shared.getByTestId('album-owner').textContent()).resolves.toMatch(/Test User · contributor/);
    await shot(p, 'albums-shared-with-you-phone');
    await shared.getByRole('link').first().click();
    await p.waitForURL(`**/albums/${album.id}`);
    await eventually(() => tiles(p).count(), 1);
    // The photo loads through its album-scoped content URL.
    await eventually(
      async () =>
        tiles(p)
          .first()
          .locator('img')
          .evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0),
      true,
    );
    // Owner-only tools are not offered.
    await expect(p.getByRole('button', { name: 'Delete album' }).count()).resolves.toBe(0);
    await shot(p, 'album-as-member-phone');
    await p.getByRole('button', { name: 'Leave album' }).click();
    await p.waitForURL('**/albums');
    await expect(p.getByRole('list', { name: 'Shared with you' }).count()).resolves.toBe(0);
  });

  it("each member sees the other's photos read-only in the viewer and the selection offers only what may be done to them", async () => {
    const { owner, member, album, path } = await ownerWithContributor('Both of us');
    await ok(
      member.user.api.POST('/v1/albums/{id}/mediaItems', { ...path, body: { mediaItems: [member.items.png!.id] } }),
      204,
    );

    // The member opens the owner's photo: looking and downloading only, and no call the API refuses.
    const p = member.page;
    const refused: string[] = [];
    p.on('response', (r) => {
      if (r.status() >= 400) refused.push(`${r.status()} ${r.url()}`);
    });
    await p.goto(`${web().origin}/albums/${album.id}?item=${owner.items.jpeg!.id}`);
    const viewer = p.getByRole('dialog', { name: /beach\.jpg/ });
    await viewer.waitFor();
    await viewer.getByRole('button', { name: 'Info' }).click();
    const info = viewer.getByRole('complementary', { name: 'Info' });
    await expect(info.textContent()).resolves.toContain('Test Camera');
    await expect(info.textContent()).resolves.toMatch(/Added by\s*Test User/);
    for (const name of ['Favourite', 'Move to trash', 'Hidden', 'Add to album', 'Set as album cover'])
      await expect(viewer.getByRole('button', { name }).count()).resolves.toBe(0);
    await expect(viewer.getByRole('link', { name: 'Download original' }).count()).resolves.toBe(1);
    await expect(info.getByRole('textbox').count()).resolves.toBe(0);
    await shot(p, 'album-member-views-owners-photo');
    expect(refused).toEqual([]);
    // Their own photo in the same album is theirs to act on (but only the owner sets the cover).
    await viewer.getByRole('button', { name: 'Next' }).click();
    const own = p.getByRole('dialog', { name: /diagram\.png/ });
    await own.waitFor();
    await expect(own.getByRole('button', { name: 'Favourite' }).count()).resolves.toBe(1);
    await expect(own.getByRole('complementary', { name: 'Info' }).textContent()).resolves.not.toContain('Added by');
    // Its details name the album holding it (shared with them), linking there.
    await expect(
      own.getByTestId('info-album').getByRole('link', { name: 'Both of us' }).getAttribute('href'),
    ).resolves.toBe(`/albums/${album.id}`);
    await expect(own.getByRole('button', { name: 'Set as album cover' }).count()).resolves.toBe(0);

    // The owner selects both photos: only taking them out of the album (and downloading) is offered; her own alone, more.
    const o = owner.page;
    await o.goto(`${web().origin}/albums/${album.id}?item=${member.items.png!.id}`);
    const theirs = o.getByRole('dialog', { name: /diagram\.png/ });
    await theirs.getByRole('button', { name: 'Info' }).click();
    await expect(theirs.getByRole('complementary', { name: 'Info' }).textContent()).resolves.toMatch(
      /Added by\s*Test User/,
    );
    await expect(theirs.getByRole('button', { name: 'Move to trash' }).count()).resolves.toBe(0);
    // The owner makes the member's photo the album's cover.
    await theirs.getByRole('button', { name: 'Set as album cover' }).click();
    await eventually(
      async () => (await ok(owner.user.api.GET('/v1/albums/{id}', path))).coverMediaItemId,
      member.items.png!.id,
    );
    await o.goto(`${web().origin}/albums/${album.id}`);
    await eventually(() => tiles(o).count(), 2);
    for (const i of [0, 1]) {
      await tiles(o).nth(i).hover();
      await tiles(o)
        .nth(i)
        .getByRole('button', { name: /^Select / })
        .click();
    }
    const bar = o.getByRole('toolbar', { name: 'Selected items' });
    await expect(bar.textContent()).resolves.toContain('2 selected');
    const offered = () =>
      bar.locator('.selection-actions button').evaluateAll((bs) => bs.map((b) => b.getAttribute('title')));
    await expect(offered()).resolves.toEqual(['Remove from album', 'Download']);
    await tiles(o)
      .nth(1)
      .getByRole('button', { name: /^Select / })
      .click();
    await expect(bar.textContent()).resolves.toContain('1 selected');
    await expect(offered()).resolves.toEqual([
      'Remove from album',
      'Set as album cover',
      'Favourite',
      'Add to album',
      'Download',
      'Move to trash',
    ]);

    // "Add to album" offers the member the album they contribute to, with its owner's name; not once they only view it.
    const pickable = async () => {
      await p.goto(`${web().origin}/`);
      await eventually(() => tiles(p).count(), 1);
      await tiles(p).first().hover();
      await tiles(p)
        .first()
        .getByRole('button', { name: /^Select / })
        .click();
      await p.getByRole('toolbar', { name: 'Selected items' }).getByRole('button', { name: 'Add to album' }).click();
      const picker = p.getByRole('dialog', { name: 'Add 1 item to an album' });
      await picker
        .getByText(/^No albums yet|Test User’s$/)
        .first()
        .waitFor();
      return picker.locator('.picker-album').allTextContents();
    };
    await expect(pickable()).resolves.toEqual([expect.stringMatching(/^Both of us.*2 items · Test User’s$/)]);
    await ok(
      owner.user.api.POST('/v1/albums/{id}/members', {
        ...path,
        body: { username: member.user.username, role: 'viewer' },
      }),
      201,
    );
    await expect(pickable()).resolves.toEqual([]);
  });

  it('a contributor uploading on the album page puts the photo into the album, also one already in their library', async () => {
    const { owner, member, album, path } = await ownerWithContributor('Our trip');
    const p = member.page;
    await p.goto(`${web().origin}/albums/${album.id}`);
    await eventually(() => tiles(p).count(), 1);
    // A new file (the video) and one the member already has (the PNG, answered 409 by the API).
    await p.getByTestId('upload-input').setInputFiles([web().files.mp4, web().files.png]);
    await eventually(() => tiles(p).count(), 3, 60_000);
    await eventually(async () => (await p.getByTestId('album-count').textContent()) ?? '', '3 items');
    const inAlbum = await ok(owner.user.api.GET('/v1/albums/{id}/mediaItems', path), 200);
    expect(inAlbum.map((i) => i.filename).sort()).toEqual(['beach.jpg', 'clip.mp4', 'diagram.png']);
    // Uploads elsewhere go to the library only.
    await p.goto(`${web().origin}/`);
    await eventually(() => tiles(p).count(), 2, 60_000);
  });
});

/**
 * Albums shared with household members, in a real browser against the whole of Trove: the owner
 * adds a user on the album's Members panel; that user finds the album under "Shared with you" with
 * the owner's name and their role, opens it and sees its photo load (a content URL scoped to the
 * album), and leaves it.
 */
import { ok } from '../support/api';
import { DESKTOP, PHONE, eventually, nav, shot, webAppForSuite, tiles } from './fixtures';

const web = webAppForSuite();

describe('albums shared with members (browser)', () => {
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
});

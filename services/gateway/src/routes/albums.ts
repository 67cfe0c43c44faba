import {
  addAlbumMediaItemsRpc,
  addAlbumMemberRpc,
  albumItemsHeldRpc,
  listAlbumMembersRpc,
  lookupUsersRpc,
  removeAlbumMemberRpc,
  createAlbumRpc,
  deleteAlbumRpc,
  getAlbumRpc,
  listAlbumMediaItemsRpc,
  listAlbumsRpc,
  listMediaItemAlbumsRpc,
  removeAlbumMediaItemsRpc,
  updateAlbumRpc,
} from '@trove/proto-events';
import { AppError, badRequest, notFound } from '@trove/kit';
import type { BlobStore, Bus, Logger } from '@trove/kit';
import type { AlbumV1 } from '@trove/proto-events';
import { ownerOriginals } from '../content/album-originals';
import { streamZip } from '../content/album-zip';
import type { ContentUrls, RequestOrigin } from '../content/content-urls';
import type { OperationRouter } from '../openapi/operation-router';
import { schemaFields } from '../openapi/schema-fields';
import { presenter } from '../present';
import { requireUser } from '../security/authenticate';
import { itemCalls, userAnswer, userCommand } from './user-calls';

export interface AlbumRouteDeps {
  bus: Bus;
  contentUrls: ContentUrls;
  /** The originals a ZIP streams. */
  blobs: BlobStore;
  log: Logger;
}

/**
 * Albums and their items, for the token's user (the library service scopes every call to it:
 * another user's album answers 404 `album not found`, another user's item `mediaitem not found`).
 * Query, path and body were validated against openapi.yaml, which also filled the defaults.
 */
export function albumRoutes(routes: OperationRouter, deps: AlbumRouteDeps): void {
  const present = (req: RequestOrigin) => presenter(req, deps.contentUrls);
  const item = itemCalls(deps);
  /** Users' profiles by id, from the auth service (the library knows only ids). */
  const profiles = async (ids: string[]) => {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return new Map<string, { name: string; username: string }>();
    const { users } = await deps.bus.request(lookupUsersRpc, { ids: unique });
    return new Map(users.map((u) => [u.id, u]));
  };
  /** Albums with their owner's name. */
  const withOwners = async (req: RequestOrigin, albums: AlbumV1[]) => {
    const found = await profiles(albums.map((a) => a.userId));
    const names = new Map([...found].map(([id, u]) => [id, u.name]));
    return present(req).albums(albums, names);
  };
  // The items an album gains or loses: the body's `mediaItems`.
  const itemsInBody = (req: { body: { mediaItems: string[] } }) => ({ mediaItemIds: req.body.mediaItems });

  // `+name` is `name`: a leading `+` (sent as %2B) says ascending explicitly.
  const ascending = (sort: unknown) => (typeof sort === 'string' ? sort.replace(/^\+/, '') : sort);
  routes.handle(
    'listAlbums',
    userAnswer(async (req, userId) =>
      withOwners(
        req,
        (await deps.bus.request(listAlbumsRpc, { userId, ...req.query, sort: ascending(req.query.sort) })).albums,
      ),
    ),
  );
  routes.handle(
    'createAlbum',
    userAnswer(
      async (req, userId) =>
        (
          await withOwners(req, [
            await deps.bus.request(createAlbumRpc, { userId, ...schemaFields('AlbumRequest', req.body) }),
          ])
        )[0]!,
      201,
    ),
  );
  routes
    .handle(
      'getAlbum',
      userAnswer(
        async (req, userId) =>
          (await withOwners(req, [await deps.bus.request(getAlbumRpc, { userId, id: req.params.id })]))[0]!,
      ),
    )
    .handle('updateAlbum', item.update(updateAlbumRpc, 'AlbumUpdateRequest'))
    .handle('deleteAlbum', item.command(deleteAlbumRpc))
    .handle(
      'listAlbumMediaItems',
      item.answer(
        listAlbumMediaItemsRpc,
        (req, { items }) => present(req).albumItems(items, req.params.id),
        (req) => req.query,
      ),
    )
    .handle('addAlbumMediaItems', item.command(addAlbumMediaItemsRpc, itemsInBody))
    .handle('removeAlbumMediaItems', item.command(removeAlbumMediaItemsRpc, itemsInBody))
    .handle(
      'albumMediaItemsExist',
      item.answer(albumItemsHeldRpc, (_req, { mediaItemIds }) => ({ mediaItems: mediaItemIds }), itemsInBody),
    );
  // The album's originals as a ZIP, streamed (content/album-zip.ts); 404 before anything is sent.
  routes.handle('downloadAlbum', async (req, res) => {
    const { userId } = requireUser(res);
    const album = await deps.bus.request(getAlbumRpc, { userId, id: req.params.id });
    await streamZip(res, deps, `${album.name}.zip`, ownerOriginals(deps.bus, userId, album.id));
  });
  routes.handle(
    'listMediaItemAlbums',
    userAnswer(async (req, userId) =>
      withOwners(req, (await deps.bus.request(listMediaItemAlbumsRpc, { userId, mediaItemId: req.params.id })).albums),
    ),
  );

  // ---- members: the owner shares the album with other users of the server ----
  routes.handle(
    'listAlbumMembers',
    userAnswer(async (req, userId) => {
      const { members } = await deps.bus.request(listAlbumMembersRpc, { userId, id: req.params.id });
      const users = await profiles(members.map((m) => m.userId));
      // A member whose account is being deleted is left out (the library drops them on its event).
      return members.flatMap((m) => {
        const u = users.get(m.userId);
        return u ? [{ userId: m.userId, name: u.name, username: u.username, role: m.role }] : [];
      });
    }),
  );
  routes.handle(
    'addAlbumMember',
    userAnswer(async (req, userId) => {
      const id = req.params.id;
      // Who asks is checked before the name is looked up: a stranger learns nothing of user names.
      const album = await deps.bus.request(getAlbumRpc, { userId, id });
      if (album.role !== undefined && album.role !== 'owner')
        throw new AppError('FORBIDDEN', 'only the album owner may do this');
      const { users } = await deps.bus.request(lookupUsersRpc, { usernames: [req.body.username] });
      const user = users.find((u) => u.username.toLowerCase() === req.body.username.toLowerCase());
      if (!user) throw notFound('user not found');
      if (user.id === userId) throw badRequest('you own this album: add another user');
      const member = await deps.bus.request(addAlbumMemberRpc, { userId, id, memberId: user.id, role: req.body.role });
      return { userId: user.id, name: user.name, username: user.username, role: member.role };
    }, 201),
  );
  routes.handle(
    'removeAlbumMember',
    userCommand((req, userId) =>
      deps.bus.request(removeAlbumMemberRpc, { userId, id: req.params.id, memberId: req.params.userId }),
    ),
  );
}

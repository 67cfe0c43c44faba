import {
  getPersonRpc,
  listMediaItemPeopleRpc,
  listPeopleRpc,
  listPersonMediaItemsRpc,
  locateFaceRpc,
  mergePeopleRpc,
  regroupPeopleRpc,
  updatePersonRpc,
} from '@trove/proto-events';
import { rpcHandler } from '@trove/kit';
import type { ServeOptions } from '@trove/kit';
import type { PeopleService } from './service';

/** People's RPCs: the gateway calls them with the authenticated user's id; the jobs service regroups. */
export function peopleHandlers(people: PeopleService): ServeOptions['handlers'] {
  return [
    rpcHandler(listPeopleRpc, async ({ userId, page, limit, hidden }) => ({
      people: await people.list(userId, page, limit, hidden),
    })),
    rpcHandler(getPersonRpc, ({ userId, id }) => people.get(userId, id)),
    rpcHandler(listPersonMediaItemsRpc, async ({ userId, id, page, limit }) => ({
      mediaItemIds: await people.itemIds(userId, id, page, limit),
    })),
    rpcHandler(listMediaItemPeopleRpc, async ({ userId, mediaItemId }) => ({
      people: await people.ofItem(userId, mediaItemId),
    })),
    rpcHandler(updatePersonRpc, async ({ userId, id, ...changes }) => {
      await people.update(userId, id, changes);
      return {};
    }),
    rpcHandler(mergePeopleRpc, async ({ userId, id, people: others }) => {
      await people.merge(userId, id, others);
      return {};
    }),
    rpcHandler(regroupPeopleRpc, ({ userId }) => people.regroup(userId)),
    rpcHandler(locateFaceRpc, ({ userId, id }) => people.locateFace(userId, id)),
  ];
}

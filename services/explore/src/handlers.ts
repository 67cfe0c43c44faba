import * as contracts from '@trove/proto-events';
import { rpcHandler } from '@trove/kit';
import type { AnyRpcHandler } from '@trove/kit';
import type { ExploreServices } from './wire';

/**
 * Every RPC of the explore service, one line each: the gateway calls them with the authenticated
 * user's id (the jobs service regroups people). The rules are the domains'.
 */
export function handlers({ placesThings, people, search }: ExploreServices): AnyRpcHandler[] {
  /** A change answered with an empty reply once done. */
  const done = async (change: Promise<void>) => {
    await change;
    return {};
  };
  return [
    // ---- places and things, call by call
    rpcHandler(contracts.listPlacesRpc, async (r) => ({
      places: await placesThings.list('place', r.userId, r.page, r.limit),
    })),
    rpcHandler(contracts.listThingsRpc, async (r) => ({
      things: await placesThings.list('thing', r.userId, r.page, r.limit),
    })),
    rpcHandler(contracts.getPlaceRpc, ({ userId, id }) => placesThings.get('place', userId, id)),
    rpcHandler(contracts.getThingRpc, ({ userId, id }) => placesThings.get('thing', userId, id)),
    rpcHandler(contracts.listPlaceMediaItemsRpc, async (r) => ({
      mediaItemIds: await placesThings.itemIds('place', r.userId, r.id, r.page, r.limit),
    })),
    rpcHandler(contracts.listThingMediaItemsRpc, async (r) => ({
      mediaItemIds: await placesThings.itemIds('thing', r.userId, r.id, r.page, r.limit),
    })),
    rpcHandler(contracts.listMediaItemPlacesRpc, async (r) => ({
      places: await placesThings.ofItem('place', r.userId, r.mediaItemId),
    })),
    rpcHandler(contracts.listMediaItemThingsRpc, async (r) => ({
      things: await placesThings.ofItem('thing', r.userId, r.mediaItemId),
    })),
    // ---- people
    rpcHandler(contracts.listPeopleRpc, async (r) => ({
      people: await people.list(r.userId, r.page, r.limit, r.hidden),
    })),
    rpcHandler(contracts.getPersonRpc, ({ userId, id }) => people.get(userId, id)),
    rpcHandler(contracts.listPersonMediaItemsRpc, async (r) => ({
      mediaItemIds: await people.itemIds(r.userId, r.id, r.page, r.limit),
    })),
    rpcHandler(contracts.listMediaItemPeopleRpc, async (r) => ({
      people: await people.ofItem(r.userId, r.mediaItemId),
    })),
    rpcHandler(contracts.updatePersonRpc, ({ userId, id, ...changes }) => done(people.update(userId, id, changes))),
    rpcHandler(contracts.mergePeopleRpc, ({ userId, id, people: others }) => done(people.merge(userId, id, others))),
    rpcHandler(contracts.listPersonFacesRpc, async (r) => ({
      faces: await people.faces(r.userId, r.id, r.page, r.limit),
    })),
    rpcHandler(contracts.assignFaceRpc, ({ userId, id, faceId }) => done(people.assignFace(userId, id, faceId))),
    rpcHandler(contracts.removePersonFaceRpc, ({ userId, id, faceId }) => done(people.removeFace(userId, id, faceId))),
    rpcHandler(contracts.regroupPeopleRpc, ({ userId }) => people.regroup(userId)),
    rpcHandler(contracts.locateFaceRpc, ({ userId, id }) => people.locateFace(userId, id)),
    // ---- search
    rpcHandler(contracts.searchMediaItemsRpc, async (r) => ({
      mediaItemIds: await search.search(r.userId, r.q, r.page, r.limit),
    })),
  ];
}

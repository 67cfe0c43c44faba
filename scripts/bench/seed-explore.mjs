// The bench seeder's explore documents, for every item of a plan: its record (`explore_items`:
// place, things, visibility), its faces (`explore_faces`) and its search document (`search_items`),
// written in bulk (`insertMany`: one by one through the event handling, 100 000 items take far
// too long); places, things and people are made and named through explore's own repositories,
// whose indexes are made first. Places, things and people are summed up (count, cover) here: the
// repositories' refreshes read every member's document on the embedded store (a minute for places
// and things at 200 000 items, growing faster than the library); a sample of each is refreshed
// through the repository, which must find the same summaries. The documents
// have the shapes the repositories write: they are built with explore's own functions (keys, face
// ids, words), and bench-search checks a sample against what the search module writes.
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { log, require, root, secondsSince } from '../bench-common.mjs';
import { PLACES, THINGS, newestFirst, processedResult, visible } from './seed-plan.mjs';

const dist = (path) => require(join(root, 'services/explore/dist', path));
const { PlacesThingsRepository } = dist('places-things/repository.js');
const { placeKey, thingKey } = dist('places-things/service.js');
const { PeopleRepository } = dist('people/repository.js');
const { faceId } = dist('people/service.js');
const { SearchRepository } = dist('search/repository.js');
const { FIELDS } = dist('search/document.js');
const { dateWords, terms, words } = dist('search/text.js');
const { faceThumbnailKey } = require(join(root, 'proto-events/dist/index.js'));

const BATCH = 5000;

/** The names of the item's named people, as the people module answers them (by name). */
export function peopleNames(plan, item) {
  const names = [...new Set(item.faces.map((f) => plan.people[f.person].name))].filter(Boolean);
  return names.sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : a.toLowerCase() > b.toLowerCase() ? 1 : 0));
}

/** What `make(key)` answers, made once per key: most of an item's texts are among a few (places, things, cameras, days). */
const remembered = (() => {
  const made = new Map();
  return (make, key) => {
    let by = made.get(make);
    if (!by) made.set(make, (by = new Map()));
    let value = by.get(key);
    if (value === undefined) by.set(key, (value = make(key)));
    return value;
  };
})();
const wordsOf = (text) => remembered(words, text);

/**
 * What the search module's event handling writes for the item (its `revision` aside) on the embedded
 * store, whose queries are answered in memory: no `terms` (`withTerms`: as where the store answers them).
 * `result`: the item's processedResult, when made already.
 */
export function searchDoc(plan, item, { withTerms = false, result = processedResult(plan, item) } = {}) {
  const { place } = result;
  const fields = {
    filename: words(item.filename),
    description: wordsOf(item.description ?? ''),
    camera: wordsOf(item.camera.join(' ')),
    date: remembered(dateWords, item.creationTime.slice(0, 10)),
    place: place
      ? wordsOf([place.name, place.town, place.city, place.state, place.country].filter(Boolean).join(' '))
      : [],
    things: wordsOf(result.things.map((t) => t.label).join(' ')),
    people: wordsOf(peopleNames(plan, item).join(' ')),
    text: wordsOf(item.words.join(' ')),
  };
  return {
    _id: item.id,
    userId: plan.userId,
    creationTime: new Date(item.creationTime),
    fields,
    terms: withTerms ? terms(FIELDS.flatMap((f) => fields[f])) : [],
    visible: visible(item),
    stateVersion: plan.now,
    revision: 1,
  };
}

/** Ids of the groups the plan's items use (index → id), made through `make(index)` one after another. */
async function groupIds(indexes, make) {
  const ids = new Map();
  for (const index of [...new Set(indexes)].sort((a, b) => a - b)) ids.set(index, await make(index));
  return ids;
}

/**
 * Writes the documents `build(item)` makes of each item, into their collections (`build` answers
 * { collection name: a document or a list of them }), BATCH items at a time in id order: one
 * transaction per collection and batch, and only a batch's documents in memory at once.
 */
async function insertBuilt(store, planItems, build) {
  // In id order: the B-trees keyed by id (every collection's, the search documents' `userId, _id`, the
  // faces' `userId, mediaItemId`) then grow at their end, where random ids would touch a page
  // anywhere in them at each insert (past the store's page cache, the cost of an item doubled by 300 000).
  const items = [...planItems].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  for (let from = 0; from < items.length; from += BATCH) {
    const docs = {};
    for (const item of items.slice(from, from + BATCH)) {
      for (const [name, made] of Object.entries(build(item))) {
        docs[name] ??= [];
        if (Array.isArray(made)) docs[name].push(...made);
        else docs[name].push(made);
      }
    }
    for (const [name, list] of Object.entries(docs)) if (list.length > 0) await store.collection(name).insertMany(list);
  }
}

/** Writes the search module's document of every item of the plan into explore's store. */
export async function seedSearch({ store, plan }) {
  await SearchRepository.open(store);
  await insertBuilt(store, plan.items, (item) => ({ search_items: searchDoc(plan, item) }));
}

/**
 * Writes the plan's explore documents into explore's store: places, things, people, faces and
 * search. Answers the ids given to places, things and people (plan index → id) and the blob keys
 * of the people's cover faces.
 */
export async function seedExplore({ store, plan }) {
  const { userId, items, now } = plan;
  const started = performance.now();
  const explore = await PlacesThingsRepository.open(store);
  const people = await PeopleRepository.open(store);

  const placeIds = await groupIds(
    items.flatMap((i) => (i.place === null ? [] : [i.place])),
    (p) => explore.placeFor(userId, placeKey(PLACES[p]), PLACES[p]),
  );
  const thingIds = await groupIds(
    items.flatMap((i) => i.things),
    (t) => explore.thingFor(userId, thingKey(THINGS[t]), THINGS[t]),
  );
  const personIds = await groupIds(
    items.flatMap((i) => i.faces.map((f) => f.person)),
    async (p) => {
      const id = await people.createPerson(userId);
      if (plan.people[p].name) await people.updatePerson(userId, id, { name: plan.people[p].name });
      return id;
    },
  );

  await SearchRepository.open(store);
  await insertBuilt(store, items, (item) => {
    const result = processedResult(plan, item);
    return {
      explore_items: {
        _id: item.id,
        userId,
        creationTime: new Date(item.creationTime),
        placeId: item.place === null ? null : placeIds.get(item.place),
        thingIds: item.things.map((t) => thingIds.get(t)),
        hidden: item.hidden,
        trashed: item.trashed,
        visible: visible(item),
        stateVersion: now,
        filing: 1,
        leftPlaceIds: [],
        leftThingIds: [],
      },
      explore_faces: (result.faces ?? []).map((face, index) => ({
        _id: faceId(item.id, index),
        userId,
        mediaItemId: item.id,
        index,
        box: face.box,
        score: face.score,
        embedding: face.embedding,
        thumbnailKey: face.thumbnailKey,
        personId: personIds.get(item.faces[index].person),
      })),
      search_items: searchDoc(plan, item, { result }),
    };
  });
  log(
    `  explore: groups and documents written in ${secondsSince(started).toFixed(1)} s; summing up places, things and people…`,
  );

  await sumUpGroups(store.collection('explore_places'), plan, placeIds, (item) =>
    item.place === null ? [] : [item.place],
  );
  await sumUpGroups(store.collection('explore_things'), plan, thingIds, (item) => item.things);
  const coverFaceKeys = await sumUpPeople(store.collection('explore_people'), plan, personIds);
  const checking = performance.now();
  await checkGroupSummaries(explore, 'place', plan, placeIds);
  await checkGroupSummaries(explore, 'thing', plan, thingIds);
  await checkPeopleSummaries(people, plan, personIds);
  log(
    `  explore: done in ${secondsSince(started).toFixed(1)} s (a sample of places, things and people checked in ${secondsSince(checking).toFixed(1)} s)`,
  );
  return { placeIds, thingIds, personIds, coverFaceKeys };
}

/**
 * Each place's or thing's count and cover as the repository's refresh makes them: its visible items,
 * the newest one as the cover. (Through the repository, each count reads every member's document on
 * the embedded store: about a minute at 200 000 items, growing faster than the library.)
 */
async function sumUpGroups(collection, plan, groupIds, groupsOf) {
  const { userId } = plan;
  const members = new Map();
  for (const item of plan.items) {
    if (!visible(item)) continue;
    for (const g of groupsOf(item)) {
      const m = members.get(g) ?? { count: 0, cover: null };
      m.count += 1;
      if (!m.cover || newestFirst(item, m.cover) < 0) m.cover = item;
      members.set(g, m);
    }
  }
  const now = new Date();
  for (const [g, id] of groupIds) {
    const m = members.get(g);
    await collection.updateOne(
      { _id: id, userId },
      {
        $set: { mediaItemsCount: m?.count ?? 0, coverMediaItemId: m?.cover?.id ?? null, updatedAt: now },
        $inc: { revision: 1 },
      },
    );
  }
}

/** Refreshes a sample of places or things through the repository: their summaries must stay the seeded ones. */
async function checkGroupSummaries(explore, kind, plan, groupIds) {
  const summary = ({ mediaItemsCount, coverMediaItemId }) => ({ mediaItemsCount, coverMediaItemId });
  for (const [g, id] of [...groupIds].filter(([g]) => g % 40 === 20)) {
    const seeded = summary(await explore.group(kind, plan.userId, id));
    await explore.refreshSummary(kind, plan.userId, id);
    if (!isDeepStrictEqual(summary(await explore.group(kind, plan.userId, id)), seeded))
      throw new Error(`${kind} ${g}: the seeded count and cover are not the ones the repository makes`);
  }
}

/**
 * Each person's count and cover as the people repository's refresh makes them: their visible
 * items, the newest one as the cover, with their face in it. Answers the cover faces' blob keys.
 */
async function sumUpPeople(collection, plan, personIds) {
  const { userId } = plan;
  const itemsOf = new Map();
  for (const item of [...plan.items].filter(visible).sort(newestFirst)) {
    for (const face of item.faces) {
      if (!itemsOf.has(face.person)) itemsOf.set(face.person, []);
      itemsOf.get(face.person).push(item);
    }
  }
  const keys = [];
  for (const [p, id] of personIds) {
    const [cover] = itemsOf.get(p) ?? [];
    const index = cover?.faces.findIndex((f) => f.person === p);
    const coverFace = cover
      ? {
          id: faceId(cover.id, index),
          mediaItemId: cover.id,
          box: cover.faces[index].box,
          score: cover.faces[index].score,
        }
      : null;
    if (cover) keys.push(faceThumbnailKey(userId, cover.id, index));
    await collection.updateOne(
      { _id: id, userId },
      {
        $set: {
          mediaItemsCount: itemsOf.get(p)?.length ?? 0,
          coverMediaItemId: cover?.id ?? null,
          coverFace,
          revision: 1,
        },
      },
    );
  }
  return keys;
}

/** Refreshes a sample of people through the repository: their summaries must stay the seeded ones. */
async function checkPeopleSummaries(people, plan, personIds) {
  const summary = ({ mediaItemsCount, coverMediaItemId, coverFace }) => ({
    mediaItemsCount,
    coverMediaItemId,
    coverFace,
  });
  for (const [p, id] of [...personIds].filter(([p]) => p % 40 === 20)) {
    const seeded = summary(await people.person(plan.userId, id));
    await people.refreshSummary(plan.userId, id);
    if (!isDeepStrictEqual(summary(await people.person(plan.userId, id)), seeded))
      throw new Error(`person ${p}: the seeded count and cover are not the ones the people repository makes`);
  }
}

// Checks once, through the API, that a seeded library is real: explore's places, things and people
// list the seeded counts, a place's, a thing's and a person's items are the plan's (newest first),
// and an item's content URLs serve its blobs. Throws on the first difference.
import { isDeepStrictEqual } from 'node:util';
import { PLACES, THINGS, newestFirst, visible } from './seed-plan.mjs';

/** The plan's visible items by group (plan index → items, newest first). */
function itemsBy(plan, groupsOf) {
  const by = new Map();
  for (const item of plan.items.filter(visible)) {
    for (const g of new Set(groupsOf(item))) {
      if (!by.has(g)) by.set(g, []);
      by.get(g).push(item);
    }
  }
  for (const list of by.values()) list.sort(newestFirst);
  return by;
}

/**
 * `api(path)`: the JSON of a 200 answer. `seeded`: seedExplore's answer. `bytes`: blobBytes().
 * Answers one line per check.
 */
export async function checkSeededLibrary({ api, plan, seeded, bytes }) {
  const lines = [];
  const kinds = [
    {
      kind: 'places',
      ids: seeded.placeIds,
      of: (item) => (item.place === null ? [] : [item.place]),
      name: (p) => PLACES[p].name,
    },
    { kind: 'things', ids: seeded.thingIds, of: (item) => item.things, name: (t) => THINGS[t] },
    {
      kind: 'people',
      ids: seeded.personIds,
      of: (item) => item.faces.map((f) => f.person),
      name: (p) => plan.people[p].name || `person ${p}`,
    },
  ];
  for (const { kind, ids, of, name } of kinds) {
    const expected = itemsBy(plan, of);
    const indexOf = new Map([...ids].map(([index, id]) => [id, index]));
    const listed = await api(`/v1/explore/${kind}?limit=100`);
    const shown = Math.min(100, [...expected.values()].length);
    if (listed.length !== shown) throw new Error(`${kind}: ${listed.length} listed, ${shown} expected`);
    for (const group of listed) {
      const count = expected.get(indexOf.get(group.id))?.length;
      if (group.mediaItemsCount !== count)
        throw new Error(`${kind}: ${group.id} counts ${group.mediaItemsCount} items, ${count} seeded`);
    }
    // The one in the middle of the list: on the embedded NeDB store, the items of the most photographed
    // person take longer than an RPC may (their ids are matched against every item of the user).
    const group = listed[Math.floor(listed.length / 2)];
    const want = expected
      .get(indexOf.get(group.id))
      .slice(0, 100)
      .map((i) => i.id);
    const started = performance.now();
    const got = (await api(`/v1/explore/${kind}/${group.id}/mediaItems?limit=100`)).map((i) => i.id);
    const ms = performance.now() - started;
    if (!isDeepStrictEqual(got, want))
      throw new Error(`${kind}: the items of ${group.id} are not the seeded ones, newest first`);
    lines.push(
      `${kind}: ${listed.length} listed with the seeded counts; the middle one, ${name(indexOf.get(group.id))} (${group.mediaItemsCount} items), lists the seeded items, newest first (${ms.toFixed(0)} ms)`,
    );
  }
  const item = plan.items.find((i) => visible(i) && !i.video);
  const doc = await api(`/v1/mediaItems/${item.id}`);
  for (const [url, want] of [
    [doc.sourceUrl, bytes.original(item)],
    [doc.previewUrl, bytes.preview],
    [doc.thumbnailUrl, bytes.thumbnail],
  ]) {
    const res = await fetch(url);
    const got = Buffer.from(await res.arrayBuffer());
    if (res.status !== 200 || !got.equals(want))
      throw new Error(`${url}: ${res.status}, ${got.length} bytes, not the seeded blob`);
  }
  lines.push(`the content URLs of ${item.filename} (original, preview, thumbnail) serve its seeded blobs`);
  return lines;
}

// The bench seeder's library: one user's N items decided up front, deterministically (the same
// library every run), in the proportions of a real one. The seed-* modules write it into the stores.
//
// - Photos and 1 in 20 videos taken over 20 years by a few cameras; 5 % favourites, 1 % hidden,
//   1 % trashed, 5 % with a description, 4 % with words written in them (signs).
// - 60 % with a place among 300 (20 cities × 15 districts; a few cities hold most photos).
// - 1–3 things each (2 on average) among the worker's 80 labels (COCO), a few of them common.
// - 30 % of the photos with 1–3 faces among 200 people (a family shows up far more than
//   acquaintances); the 60 most photographed people have a name. Every face of a person lies
//   near that person's own point in the embedding space, as the worker's faces of one person do.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { require, root } from '../bench-common.mjs';

const { COCO_LABELS, titleCase } = require(join(root, 'services/worker/dist/components/things/labels.js'));
const { faceThumbnailKey, mediaBlobKey } = require(join(root, 'proto-events/dist/index.js'));
const { EMBEDDING_LENGTH } = require(join(root, 'services/worker/dist/components/faces/index.js'));
// mulberry32: the linear congruential generator before it multiplied past 2^53 in floating point and fell into a
// cycle of about a thousand values (every library repeated ~1 000 items).
const { seededRandom: generator } = require(join(root, 'services/kit/dist/testing/random.js'));

export const CAMERAS = [
  ['Apple', 'iPhone 12 mini'],
  ['Apple', 'iPhone 15 Pro'],
  ['Google', 'Pixel 7'],
  ['SONY', 'ILCE-7M3'],
  ['Canon', 'Canon EOS R6'],
  ['samsung', 'SM-S911B'],
];
export const CITIES = [
  ['Mumbai', 'Maharashtra', 'India', 'IN'],
  ['Paris', 'Île-de-France', 'France', 'FR'],
  ['Lyon', 'Auvergne-Rhône-Alpes', 'France', 'FR'],
  ['Berlin', 'Berlin', 'Germany', 'DE'],
  ['München', 'Bavaria', 'Germany', 'DE'],
  ['London', 'England', 'United Kingdom', 'GB'],
  ['Edinburgh', 'Scotland', 'United Kingdom', 'GB'],
  ['New York', 'New York', 'United States', 'US'],
  ['San Francisco', 'California', 'United States', 'US'],
  ['Tokyo', 'Tokyo', 'Japan', 'JP'],
  ['Kyoto', 'Kyoto', 'Japan', 'JP'],
  ['Sydney', 'New South Wales', 'Australia', 'AU'],
  ['Barcelona', 'Catalonia', 'Spain', 'ES'],
  ['Madrid', 'Madrid', 'Spain', 'ES'],
  ['Roma', 'Lazio', 'Italy', 'IT'],
  ['Venezia', 'Veneto', 'Italy', 'IT'],
  ['Amsterdam', 'North Holland', 'Netherlands', 'NL'],
  ['Lisboa', 'Lisbon', 'Portugal', 'PT'],
  ['Coimbatore', 'Tamil Nadu', 'India', 'IN'],
  ['Reykjavík', 'Capital Region', 'Iceland', 'IS'],
];
const DISTRICTS = [
  'Old Town',
  'Harbour',
  'Station',
  'North',
  'South',
  'East',
  'West',
  'Centre',
  'Riverside',
  'Hill',
  'Park',
  'Market',
  'University',
  'Airport',
  'Beach',
];
const SIGNS = [
  ['HAPPY', 'BIRTHDAY', 'GRANDMA'],
  ['OPEN'],
  ['EXIT'],
  ['STOP'],
  ['PLATFORM', '9'],
  ['FRESH', 'FISH', 'MARKET'],
  ['WELCOME', 'TO', 'LISBOA'],
  ['NO', 'PARKING'],
];
const DESCRIPTIONS = [
  'Sunset at the beach',
  'Grandma turns ninety',
  'First day of school',
  'Picnic by the river',
  'Our new kitchen',
  'Snow in the garden',
  'Wedding of Anna and Tom',
  'Hiking the ridge',
];
const NAMES = [
  'Anna',
  'Tom',
  'Grandma',
  'Grandpa',
  'Lucas',
  'Emma',
  'Noah',
  'Mia',
  'Leo',
  'Sofia',
  'Hugo',
  'Alice',
  'Jonas',
  'Clara',
  'Felix',
  'Nora',
  'Oscar',
  'Ida',
  'Max',
  'Lina',
];
const PEOPLE = 200;
const NAMED_PEOPLE = 60;
/** Face embeddings made per person (faces cycle through them): the same person never looks quite the same. */
const LOOKS = 6;

export const PLACES = CITIES.flatMap(([city, state, country, countryCode], c) =>
  DISTRICTS.map((district, d) => ({
    name: `${district}, ${city}`,
    town: district,
    city,
    state,
    country,
    countryCode,
    postcode: null,
    latitude: 10 + c + d / 100,
    longitude: 5 + c + d / 100,
  })),
);
export const THINGS = COCO_LABELS.map(titleCase);

/**
 * The id of the plan's `i`-th item: a UUID (version 4 in form) made of a digest of the user, the
 * seed and `i`, so that the same plan (count, user, now, seed) has the same ids and a seeding process
 * can make the plan again instead of receiving it.
 */
function itemId(userId, seed, i) {
  const h = createHash('sha256').update(`${userId}/${seed}/${i}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/**
 * One user's library of `count` items, taken before `now`; the same arguments give the same library. Each item: `id`, `video`, `filename`,
 * `mimeType`, `creationTime` (ISO), `camera`, `favourite`, `hidden`, `trashed`, `description`,
 * `place` (index into PLACES, or null), `things` (indexes into THINGS), `faces` ({ person, box,
 * score, look }), `words`. People: `{ name, looks }` (looks: base64 embeddings, as the worker sends them).
 */
export function libraryPlan({ count, userId, now = new Date(), seed = 7 }) {
  const random = generator(seed);
  const pick = (list) => list[Math.floor(random() * list.length)];
  /** Index into a list of `n`, the first ones far more often (a library's home town, family, common things). */
  const skewed = (n) => Math.floor(n * random() ** 2);
  const items = [];
  for (let i = 0; i < count; i++) {
    const video = i % 20 === 0;
    const camera = pick(CAMERAS);
    const creationTime = new Date(now.getTime() - 60_000 - Math.floor(random() * 20 * 365 * 86_400_000)).toISOString();
    const flag = random();
    const faces = [];
    if (!video && random() < 0.3) {
      for (let n = 1 + Math.floor(random() * 3); n > 0; n--) {
        const person = skewed(PEOPLE);
        if (faces.some((f) => f.person === person)) continue;
        faces.push({
          person,
          look: Math.floor(random() * LOOKS),
          score: 0.8 + Math.floor(random() * 190) / 1000,
          box: { x: random() * 0.7, y: random() * 0.7, width: 0.1 + random() * 0.1, height: 0.12 + random() * 0.1 },
        });
      }
    }
    faces.sort((a, b) => b.score - a.score); // as the worker sends them: best first
    const things = new Set(faces.length > 0 ? [0] : []); // index 0: Person
    for (let n = 1 + Math.floor(random() * 3); things.size < n;) things.add(skewed(THINGS.length));
    items.push({
      id: itemId(userId, seed, i),
      video,
      filename: `${video ? 'VID_' : pick(['IMG_', 'DSC0', 'PXL_'])}${String(i).padStart(5, '0')}.${video ? 'mp4' : pick(['HEIC', 'JPG', 'jpeg'])}`,
      mimeType: video ? 'video/mp4' : 'image/jpeg',
      creationTime,
      camera,
      favourite: flag < 0.05,
      hidden: flag > 0.99,
      trashed: flag > 0.98 && flag <= 0.99,
      description: random() < 0.05 ? pick(DESCRIPTIONS) : null,
      place: random() < 0.6 ? skewed(PLACES.length) : null,
      things: [...things],
      faces,
      words: !video && random() < 0.04 ? pick(SIGNS) : [],
    });
  }
  const people = Array.from({ length: PEOPLE }, (_, p) => ({
    name:
      p < NAMED_PEOPLE
        ? `${NAMES[p % NAMES.length]}${p < NAMES.length ? '' : ` ${String.fromCharCode(65 + Math.floor(p / NAMES.length))}.`}`
        : '',
    looks: looksOf(random),
  }));
  return { userId, now, seed, items, people };
}

/** LOOKS unit vectors near one random point (distance ~0.1 between looks of one person, ~1 between people). */
function looksOf(random) {
  const normal = () => Math.sqrt(-2 * Math.log(random() || 1e-9)) * Math.cos(2 * Math.PI * random());
  const centre = Float32Array.from({ length: EMBEDDING_LENGTH }, normal);
  return Array.from({ length: LOOKS }, () => {
    const look = centre.map((v) => v + 0.3 * normal());
    const length = Math.hypot(...look);
    const bytes = Buffer.alloc(EMBEDDING_LENGTH * 4);
    look.forEach((v, k) => bytes.writeFloatLE(v / length, k * 4));
    return bytes.toString('base64');
  });
}

/** Neither hidden nor trashed: what lists, counts and search show. */
export const visible = (item) => !item.hidden && !item.trashed;

/** Newest taken first, then by id: the order of explore's item lists. */
export const newestFirst = (a, b) =>
  a.creationTime < b.creationTime ? 1 : a.creationTime > b.creationTime ? -1 : a.id < b.id ? 1 : a.id > b.id ? -1 : 0;

const PLACEHOLDER = 'data:image/webp;base64,UklGRh4AAABXRUJQVlA4IBIAAAAwAQCdASoBAAEAAQAcJaQAA3AA/v3AgAA=';

/** The worker's result for a plan's item (events.v1.media.processed): what media and explore make their documents of. */
export function processedResult(plan, item) {
  const { userId } = plan;
  const key = (variant) => mediaBlobKey(userId, item.id, variant);
  const [cameraMake, cameraModel] = item.camera;
  const place = item.place === null ? null : { ...PLACES[item.place], distanceKm: 1 };
  return {
    userId,
    mediaItemId: item.id,
    mimeType: item.mimeType,
    metadata: {
      creationTime: item.creationTime,
      width: 4032,
      height: 3024,
      latitude: place?.latitude ?? null,
      longitude: place?.longitude ?? null,
      cameraMake,
      cameraModel,
      focalLength: '4.2',
      apertureFNumber: '1.6',
      isoEquivalent: '100',
      exposureTime: '0.01',
      fps: item.video ? '30' : null,
      durationSeconds: item.video ? 12 : null,
      contentIdentifier: null,
    },
    category: 'default',
    placeholder: PLACEHOLDER,
    variants: { preview: key('preview'), thumbnail: key('thumbnail'), playback: null },
    things: item.things.map((t, i) => ({ label: THINGS[t], score: 0.9 - i / 20 })),
    place,
    ...(item.video
      ? {}
      : {
          faces: item.faces.map((f, index) => ({
            box: f.box,
            score: f.score,
            embedding: plan.people[f.person].looks[f.look],
            thumbnailKey: faceThumbnailKey(userId, item.id, index),
          })),
        }),
    words: item.words,
  };
}

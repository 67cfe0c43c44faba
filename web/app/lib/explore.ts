/** Explore entries as the pages show them (shared by server and browser). */
import type { ExploreKind } from '~/api/types';

interface BoundingBoxLike {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The path of an entry's page: /explore/places/:id, /explore/things/:id, /explore/people/:id. */
export function explorePath(kind: ExploreKind, id: string): string {
  return `/explore/${kind === 'person' ? 'people' : `${kind}s`}/${id}`;
}

/** A place as people say it: "Amsterdam, Netherlands". */
export function placeLabel(place: { name: string; country: string | null }): string {
  return place.country && place.country !== place.name ? `${place.name}, ${place.country}` : place.name;
}

/**
 * CSS that shows a person's face as a square tile: a face's own thumbnail (`/v1/explore/faces/…`)
 * as it is, else the face's `box` cut out of the photo's thumbnail.
 */
export function faceStyle(
  url: string,
  box: BoundingBoxLike,
): { backgroundImage: string; backgroundSize: string; backgroundPosition: string } {
  if (/\/explore\/faces\/[^/]+\/thumbnail/.test(url))
    return { backgroundImage: cssUrl(url), backgroundSize: 'cover', backgroundPosition: '50% 50%' };
  return faceCrop(url, box);
}

function cssUrl(url: string): string {
  return `url("${url.replace(/"/g, '%22')}")`;
}

/** CSS that shows the face inside `box` of a thumbnail as the whole of a square tile. */
export function faceCrop(
  url: string,
  box: BoundingBoxLike,
): { backgroundImage: string; backgroundSize: string; backgroundPosition: string } {
  const w = Math.min(1, Math.max(box.width, 0.01));
  const h = Math.min(1, Math.max(box.height, 0.01));
  const pos = (start: number, size: number) =>
    size >= 1 ? 50 : Math.min(100, Math.max(0, (start / (1 - size)) * 100));
  return {
    backgroundImage: cssUrl(url),
    backgroundSize: `${(100 / w).toFixed(2)}% auto`,
    backgroundPosition: `${pos(box.x, w).toFixed(2)}% ${pos(box.y, h).toFixed(2)}%`,
  };
}

/** What the viewer's info panel links to: the item's place(s), things and people. */
export interface ItemEntries {
  places: { id: string; name: string; country: string | null }[];
  things: { id: string; name: string }[];
  people: { id: string; name: string | null }[];
  albums: { id: string; name: string }[];
}

import { Icon } from './ui/Icon';

/** Zoom of the place map: a city and its surroundings. */
const ZOOM = 11;
const TILE = 256;

/** The slippy-map tile under a position, with the fraction of the tile it lies at. */
export function tileAt(latitude: number, longitude: number, zoom: number): { x: number; y: number } {
  const n = 2 ** zoom;
  const lat = (Math.max(-85.05, Math.min(85.05, latitude)) * Math.PI) / 180;
  return { x: ((longitude + 180) / 360) * n, y: ((1 - Math.log(Math.tan(lat) + 1 / Math.cos(lat)) / Math.PI) / 2) * n };
}

/** A template's URL for one tile (`{z}`, `{x}`, `{y}`, and `{s}` → `a`). */
export function tileUrl(template: string, z: number, x: number, y: number): string {
  return template.replace('{z}', String(z)).replace('{x}', String(x)).replace('{y}', String(y)).replace('{s}', 'a');
}

/**
 * A still map centred on a place: the tiles around it from the configured tile server, placed with
 * CSS so it renders on the server and needs no script. Only drawn when a tile URL is configured.
 */
export function PlaceMap({
  template,
  latitude,
  longitude,
  label,
}: {
  template: string;
  latitude: number;
  longitude: number;
  label: string;
}) {
  const at = tileAt(latitude, longitude, ZOOM);
  const n = 2 ** ZOOM;
  const tiles: { key: string; src: string; left: number; top: number }[] = [];
  for (let dy = -2; dy <= 2; dy++) {
    for (let dx = -3; dx <= 3; dx++) {
      const tx = Math.floor(at.x) + dx;
      const ty = Math.floor(at.y) + dy;
      if (ty < 0 || ty >= n) continue;
      const wrapped = ((tx % n) + n) % n;
      tiles.push({
        key: `${dx},${dy}`,
        src: tileUrl(template, ZOOM, wrapped, ty),
        left: Math.round((tx - at.x) * TILE),
        top: Math.round((ty - at.y) * TILE),
      });
    }
  }
  return (
    <figure className="place-map" role="img" aria-label={`Map of ${label}`} data-testid="place-map">
      {tiles.map((t) => (
        <img
          key={t.key}
          src={t.src}
          alt=""
          loading="lazy"
          style={{ left: `calc(50% + ${t.left}px)`, top: `calc(50% + ${t.top}px)` }}
        />
      ))}
      <span className="pin">
        <Icon name="place" size={36} />
      </span>
    </figure>
  );
}

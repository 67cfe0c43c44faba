/**
 * The judging half of the authorization matrix: one user's call on another's resource must answer
 * exactly what a resource that does not exist answers (404, the same message), leak none of the
 * owner's data, and the same call on the caller's own resource must work (or meet a 409 there) — else the 404 proves
 * nothing (a wrong URL or body would answer 404 or 400 too). A call the gateway does not serve
 * yet answers its plain "not found" in all three cases, which is accepted as "not implemented".
 */
import type { OpenApiOperation } from '@trove/openapi';
import type { RawAnswer } from '../support/raw';
import { isNotImplemented } from './libraries';

/** Reads first, then changes, then removals of parts, then removals of the resource itself: an attack that got through is not hidden by a later one. */
export function inAttackOrder<T extends OpenApiOperation>(calls: T[]): T[] {
  const rank = (o: T) => (o.method === 'get' ? 0 : o.method !== 'delete' ? 1 : /\{[^}]+\}$/.test(o.path) ? 3 : 2);
  return [...calls].sort((a, b) => rank(a) - rank(b));
}

/** An answer with the ids the caller sent replaced by a placeholder, for comparing answers about different ids. */
function normalised(res: RawAnswer, sentIds: string[]): { status: number; body: string } {
  const text = res.body !== undefined ? JSON.stringify(res.body) : `<${res.bytes.length} bytes>`;
  return { status: res.status, body: sentIds.reduce((t, id) => t.split(id).join('{sent id}'), text) };
}

export interface Trial {
  call: string;
  /** The caller on the owner's resource (with ids among `ownersIds`). */
  attack: RawAnswer;
  /** The caller on ids that do not exist (`missingIds`). */
  probe: RawAnswer;
  /** The caller on its own resource. */
  control: RawAnswer;
  /** The owner's ids, which the caller is assumed to know (an answer may repeat the ones it was sent). */
  ownersIds: string[];
  missingIds: string[];
  /** Strings identifying the owner's data (ids, filename, username). */
  ownersMarkers: string[];
}

export type Verdict = { ok: true; implemented: boolean } | { ok: false; why: string };

export function judge(t: Trial): Verdict {
  const attack = normalised(t.attack, t.ownersIds);
  const probe = normalised(t.probe, t.missingIds);
  const said = (r: RawAnswer) =>
    `${r.status} ${r.body !== undefined ? JSON.stringify(r.body) : `<${r.bytes.length} bytes>`}`;
  if (t.attack.status !== 404)
    return { ok: false, why: `${t.call} on the owner's resource answered ${said(t.attack)}, not 404` };
  if (typeof (t.attack.body as { message?: unknown } | undefined)?.message !== 'string')
    return { ok: false, why: `${t.call}: the 404 has no {"message"}: ${said(t.attack)}` };
  if (attack.body !== probe.body || t.probe.status !== 404)
    return {
      ok: false,
      why: `${t.call}: the owner's resource answers ${said(t.attack)}, one that does not exist ${said(t.probe)}: they can be told apart`,
    };
  const leaked = t.ownersMarkers.filter((m) => !t.ownersIds.includes(m) && t.attack.bytes.toString('utf8').includes(m));
  if (leaked.length) return { ok: false, why: `${t.call}: the 404 names the owner's ${leaked.join(', ')}` };
  if (isNotImplemented(t.control) && isNotImplemented(t.attack)) return { ok: true, implemented: false };
  // A 409 (a job already finished, say) also shows the call found the caller's own resource.
  if ((t.control.status < 200 || t.control.status > 299) && t.control.status !== 409) {
    return {
      ok: false,
      why: `${t.call} on the caller's own resource answered ${said(t.control)}: the request the matrix builds is wrong, so its 404s prove nothing`,
    };
  }
  return { ok: true, implemented: true };
}

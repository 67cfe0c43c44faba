/**
 * The scores of `make eval-vision`, pure functions over labels and answers (tested by scoring.test.ts).
 *
 * - People: a clustering of labelled faces (each face: its identity and the person it was put in, null
 *   when it was put in none) scored pairwise (over all pairs of labelled faces) and with B-cubed (per face).
 *   A face in no person (not found, or left waiting) is alone: it makes no pair with anyone.
 * - Things: labels per photo against `expected` (recall; a list entry is met by any of its labels) and
 *   `expected` ∪ `acceptable` (a label outside both is a false positive; an acceptable one counts for nothing).
 * - Words: normalised words (case, accents and surrounding punctuation ignored).
 * - Places: country (code or name) and city (or an accepted name) as places.json's `scoring` says.
 */

/** @typedef {{ identity: string, cluster: string | null }} LabelledFace */

/** Pairwise precision and recall: same-person pairs the clustering also put together. */
export function pairwise(faces) {
  let together = 0;
  let same = 0;
  let both = 0;
  for (let i = 0; i < faces.length; i++)
    for (let j = i + 1; j < faces.length; j++) {
      const s = faces[i].identity === faces[j].identity;
      const t = faces[i].cluster !== null && faces[i].cluster === faces[j].cluster;
      if (s) same++;
      if (t) together++;
      if (s && t) both++;
    }
  // No pair put together: nothing wrong was claimed (precision 1); no same-person pair: nothing to find.
  return { precision: together ? both / together : 1, recall: same ? both / same : 1, pairs: same, together };
}

/** B-cubed precision, recall and F1 (Bagga & Baldwin): per face, its cluster against its identity. */
export function bcubed(faces) {
  if (!faces.length) return { precision: 1, recall: 1, f1: 1 };
  const key = (f, i) => (f.cluster === null ? `alone-${i}` : `c-${f.cluster}`);
  const clusters = faces.map(key);
  let p = 0;
  let r = 0;
  for (let i = 0; i < faces.length; i++) {
    let inCluster = 0;
    let ofIdentity = 0;
    let correct = 0;
    for (let j = 0; j < faces.length; j++) {
      const c = clusters[j] === clusters[i];
      const s = faces[j].identity === faces[i].identity;
      if (c) inCluster++;
      if (s) ofIdentity++;
      if (c && s) correct++;
    }
    p += correct / inCluster;
    r += correct / ofIdentity;
  }
  const precision = p / faces.length;
  const recall = r / faces.length;
  return { precision, recall, f1: (2 * precision * recall) / (precision + recall) };
}

/** People found for the labelled faces (distinct clusters among them) and the identities they show. */
export function peopleVsIdentities(faces) {
  const found = new Set(faces.flatMap((f) => (f.cluster === null ? [] : [f.cluster]))).size;
  const identities = new Set(faces.map((f) => f.identity)).size;
  return { found, identities, ratio: identities ? found / identities : 0 };
}

/**
 * Which face of a group photo is which labelled member: the assignment (members to distinct faces, or to
 * none when there are fewer faces) that puts most members in a person holding other faces of theirs.
 * `clusterOf[k]` is face k's person; `others` the identity → clusters of the rest of the labelled faces.
 * Answers, per member, the index of its face or -1.
 */
export function assignGroup(members, clusterOf, others) {
  let best = { score: -1, faces: members.map(() => -1) };
  const score = (faces) =>
    faces.reduce((n, k, m) => {
      if (k < 0 || clusterOf[k] === null) return n;
      return n + (others.get(members[m]) ?? []).filter((c) => c === clusterOf[k]).length;
    }, 0);
  const walk = (m, chosen) => {
    if (m === members.length) {
      const s = score(chosen);
      if (s > best.score) best = { score: s, faces: [...chosen] };
      return;
    }
    for (let k = -1; k < clusterOf.length; k++) {
      if (k >= 0 && chosen.includes(k)) continue;
      // A member goes without a face only when every face is taken.
      if (k < 0 && clusterOf.length - chosen.filter((c) => c >= 0).length > 0) continue;
      walk(m + 1, [...chosen, k]);
    }
  };
  walk(0, []);
  return best.faces;
}

/** A word as compared: accents and case dropped, punctuation around it stripped ("Café," → "cafe"). */
export function normaliseWord(word) {
  return word
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
}

/** The normalised words of a text (a transcription), split on white space. */
export function wordsOf(text) {
  return text
    .split(/\s+/)
    .map(normaliseWord)
    .filter((w) => w.length > 0);
}

/**
 * Word recall (labelled words among the recognised ones) and, with a transcription, precision
 * (recognised words that occur in it). Words are matched normalised; `precision` is null without one.
 */
export function scoreWords(recognised, expected, transcription) {
  const got = new Set(recognised.map(normaliseWord).filter(Boolean));
  const found = expected.filter((w) => got.has(normaliseWord(w)));
  const missed = expected.filter((w) => !got.has(normaliseWord(w)));
  if (transcription === undefined || transcription === null)
    return { found, missed, correct: null, read: null, wrong: [] };
  const truth = new Set(wordsOf(transcription));
  const read = recognised.map(normaliseWord).filter(Boolean);
  const wrong = read.filter((w) => !truth.has(w));
  return { found, missed, correct: read.length - wrong.length, read: read.length, wrong };
}

/**
 * A label as compared: lower case, letters only, and a final plural "s" dropped, so that the component's
 * "Tennis Racket" or "Ski" matches COCO's "tennis racket" or "skis" ("bus" and "glass" are left alone).
 */
export function normaliseLabel(label) {
  const l = label
    .toLowerCase()
    .replace(/[^a-z]+/g, ' ')
    .trim();
  return /[^su]s$/.test(l) ? l.slice(0, -1) : l;
}

/**
 * One photo's things: `predicted` labels (any spelling normaliseLabel equates) against its `expected`
 * entries (a string, or a list any one of which will do) and `acceptable` labels. Answers each expected
 * entry met or missed, each predicted label right, acceptable (ignored) or wrong.
 */
export function scoreThings(predicted, expected, acceptable = []) {
  const got = new Set(predicted.map(normaliseLabel));
  const entries = expected.map((e) => (Array.isArray(e) ? e : [e]));
  const met = entries.map((options) => options.some((o) => got.has(normaliseLabel(o))));
  const wanted = new Set(entries.flat().map(normaliseLabel));
  const allowed = new Set(acceptable.map(normaliseLabel));
  const judged = [...got].map((label) => ({
    label,
    verdict: wanted.has(label) ? 'right' : allowed.has(label) ? 'acceptable' : 'wrong',
  }));
  return { entries: entries.map((e, i) => ({ label: e.map(normaliseLabel).join('/'), met: met[i] })), judged };
}

/** Sums per-photo scoreThings answers: overall and per-label precision and recall. */
export function thingsTotals(photos) {
  const label = (name) => ({ name, met: 0, expected: 0, right: 0, wrong: 0 });
  const per = new Map();
  const of = (name) => per.get(name) ?? per.set(name, label(name)).get(name);
  const all = label('all');
  for (const { entries, judged } of photos) {
    for (const e of entries) {
      of(e.label).expected++;
      all.expected++;
      if (!e.met) continue;
      of(e.label).met++;
      all.met++;
    }
    for (const j of judged) {
      if (j.verdict === 'acceptable') continue;
      of(j.label)[j.verdict]++;
      all[j.verdict]++;
    }
  }
  const ratios = (l) => ({
    ...l,
    precision: l.right + l.wrong ? l.right / (l.right + l.wrong) : null,
    recall: l.expected ? l.met / l.expected : null,
  });
  return { all: ratios(all), labels: [...per.values()].map(ratios).sort((a, b) => a.name.localeCompare(b.name)) };
}

const plain = (s) => (s ? normaliseWord(String(s)).replace(/[^\p{L}\p{N}]+/gu, ' ') : '');

/** Whether a found place (worker's Place: countryCode, country, city …) matches a places.json entry. */
export function placeMatches(found, want) {
  if (!found) return { country: false, city: want.city === null };
  const country =
    String(found.countryCode ?? '').toUpperCase() === want.countryCode || plain(found.country) === plain(want.country);
  const names = [want.city, ...(want.acceptCity ?? [])].filter(Boolean).map(plain);
  // The place's city (what Trove names it), or its town when that is one of the accepted names.
  const city = want.city === null || [found.city, found.name, found.town].some((n) => n && names.includes(plain(n)));
  return { country, city };
}

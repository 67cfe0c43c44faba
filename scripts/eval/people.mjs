/**
 * People: the worker's faces step (detection, embedding) on every photo of faces/, then explore's grouping
 * as uploads run it (FaceGrouping.add, one photo after another), and the background re-grouping (regroup)
 * of the same faces. Whole photos and the tight grayscale crops (`crop: true`) are two separate libraries,
 * scored separately. Each labelled photo contributes its largest face (a `person` photo) or its members'
 * faces (a `group` photo, matched to faces by assignGroup); a photo without a face leaves its person alone.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { assignGroup, bcubed, pairwise, peopleVsIdentities } from './scoring.mjs';
import { blankPicture, cpuTimed, logger, mean, pictureOf, ratio, requireFrom } from './common.mjs';

const explore = requireFrom('services/explore');
const worker = requireFrom('services/worker');

/** Grouping rules: explore's defaults, or the variables the service reads. */
function groupingRules(grouping) {
  const rules = { ...grouping.DEFAULT_GROUPING };
  if (process.env.TROVE_PEOPLE_MATCH_DISTANCE) rules.maxDistance = Number(process.env.TROVE_PEOPLE_MATCH_DISTANCE);
  if (process.env.TROVE_PEOPLE_MIN_FACES) rules.minFaces = Number(process.env.TROVE_PEOPLE_MIN_FACES);
  return rules;
}

export async function evalPeople(dir, { verbose, only }) {
  const labels = JSON.parse(await readFile(join(dir, 'faces.json'), 'utf8'));
  const { findFaces } = worker('./dist/pipeline/faces.js');
  const grouping = explore('./dist/people/grouping.js');
  const rules = groupingRules(grouping);
  const log = logger();
  const item = (name) => ({ userId: 'eval', mediaItemId: name, filename: name });

  const loaded = await cpuTimed(() => findFaces(log, item('load'), blankPicture()));
  console.log(`faces: models loaded in ${loaded.ms.toFixed(0)} ms of CPU; grouping ${JSON.stringify(rules)}`);

  const photos = Object.entries(labels.images).filter(([name]) => !only || name.includes(only));
  const detected = [];
  for (const [name, label] of photos) {
    const picture = await pictureOf(join(dir, name));
    const { value: faces, ms } = await cpuTimed(() => findFaces(log, item(name), picture));
    detected.push({ name, label, faces, ms, size: `${picture.width}x${picture.height}` });
    if (verbose)
      console.log(`  ${name} ${picture.width}x${picture.height}: ${faces.length} faces, ${ms.toFixed(0)} ms`);
  }

  for (const [subset, photosOf] of [
    ['', detected.filter((d) => !d.label.crop)],
    ['crop_', detected.filter((d) => d.label.crop)],
  ]) {
    if (!photosOf.length) continue;
    const title = subset ? 'crops (tight grayscale face crops)' : 'whole photos';
    const faces = photosOf.flatMap((d) =>
      d.faces.map((f, index) => ({
        id: `${d.name}#${index}`,
        embedding: f.embedding,
        quality: f.quality,
        personId: null,
      })),
    );
    // As uploads group them: each photo's faces in turn.
    let seq = 0;
    const incremental = new grouping.FaceGrouping([], rules, () => `person-${seq++}`);
    for (const f of faces) incremental.add(f);
    const clusterings = [['', (id) => incremental.personOf(id)]];
    if (typeof grouping.regroup === 'function') {
      const { personOf } = grouping.regroup(faces, rules, () => `person-${seq++}`);
      clusterings.push(['regrouped_', (id) => personOf.get(id) ?? null]);
    }
    console.log(`\npeople, ${title}: ${photosOf.length} photos, ${faces.length} faces`);
    for (const [stage, personOf] of clusterings) {
      const labelled = labelledFaces(photosOf, personOf);
      const pw = pairwise(labelled);
      const b3 = bcubed(labelled);
      const pi = peopleVsIdentities(labelled);
      const all = new Set(faces.map((f) => personOf(f.id)).filter(Boolean)).size;
      console.log(
        `  ${stage ? 'after regroup' : 'as uploaded'}: ${labelled.length} labelled faces of ${pi.identities} identities in ${pi.found} people (${all} people in all); ${pw.pairs} same-person pairs, ${pw.together} pairs put together`,
      );
      if (verbose) printClusters(labelled);
      const name = (n) => `people_${subset}${stage}${n}`;
      ratio(name('pairwise_precision'), pw.precision);
      ratio(name('pairwise_recall'), pw.recall);
      ratio(name('bcubed_precision'), b3.precision);
      ratio(name('bcubed_recall'), b3.recall);
      ratio(name('bcubed_f1'), b3.f1);
      ratio(name('found_vs_identities'), pi.ratio);
    }
    const noFace = photosOf
      .filter((d) => (d.label.person || d.label.group?.length) && !d.faces.length)
      .map((d) => d.name);
    const labelledPhotos = photosOf.filter((d) => d.label.person || d.label.group?.length).length;
    // Faces beyond the labelled ones where the photo has no one else in it.
    const extra = photosOf
      .filter((d) => !d.label.background_faces && (d.label.person || d.label.complete))
      .flatMap((d) => {
        const n = d.faces.length - (d.label.person ? 1 : d.label.group.length);
        return n > 0 ? [`${d.name} +${n}`] : [];
      });
    for (const d of photosOf.filter((p) => p.label.min_faces))
      console.log(`  ${d.name}: ${d.faces.length} faces found, at least ${d.label.min_faces} visible`);
    if (noFace.length) console.log(`  no face found in: ${noFace.join(', ')}`);
    if (extra.length) console.log(`  more faces than people in: ${extra.join(', ')}`);
    ratio(`faces_${subset}found_in_labelled_photos`, (labelledPhotos - noFace.length) / labelledPhotos);
  }
  const ms = mean(detected.map((d) => d.ms));
  ratio('faces_ms_per_photo', ms);
  const whole = detected.filter((d) => !d.label.crop);
  if (whole.length) ratio('faces_ms_per_whole_photo', mean(whole.map((d) => d.ms)));
}

/** The labelled faces of the photos with their person (see the header). */
function labelledFaces(photos, personOf) {
  const out = [];
  const areas = (d) => d.faces.map((f) => f.box.width * f.box.height);
  for (const d of photos) {
    if (!d.label.person) continue;
    const a = areas(d);
    const largest = a.length ? a.indexOf(Math.max(...a)) : -1;
    out.push({
      identity: d.label.person,
      cluster: largest < 0 ? null : personOf(`${d.name}#${largest}`),
      photo: d.name,
    });
  }
  const others = new Map();
  for (const f of out) if (f.cluster !== null) others.set(f.identity, [...(others.get(f.identity) ?? []), f.cluster]);
  for (const d of photos) {
    const members = d.label.group ?? [];
    if (!members.length) continue;
    const clusterOf = d.faces.map((_, k) => personOf(`${d.name}#${k}`));
    const chosen = assignGroup(members, clusterOf, others);
    members.forEach((identity, m) =>
      out.push({ identity, cluster: chosen[m] < 0 ? null : clusterOf[chosen[m]], photo: `${d.name}[${identity}]` }),
    );
  }
  return out;
}

function printClusters(labelled) {
  const by = new Map();
  for (const f of labelled) {
    const key = f.cluster ?? `(none) ${f.photo}`;
    by.set(key, [...(by.get(key) ?? []), `${f.identity}:${f.photo}`]);
  }
  for (const [key, members] of by) console.log(`    ${key}: ${members.join(' ')}`);
}

/**
 * Things: the worker's things step on every photo of objects/, scored against objects.json (see scoring.mjs).
 * On the photos of animals with no person, also the faces the worker would keep (its faces step, less the faces
 * its things step saw on an animal: withoutAnimalFaces): a pet's face taken for a person's.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { scoreThings, thingsTotals } from './scoring.mjs';
import { blankPicture, cpuTimed, logger, mean, pictureOf, ratio, requireFrom, slug } from './common.mjs';

const worker = requireFrom('services/worker');

export async function evalThings(dir, { verbose, only }) {
  const labels = JSON.parse(await readFile(join(dir, 'objects.json'), 'utf8'));
  const { findThings } = worker('./dist/pipeline/things.js');
  const { findFaces, withoutAnimalFaces } = worker('./dist/pipeline/faces.js');
  const log = logger();
  const item = (name) => ({ userId: 'eval', mediaItemId: name, filename: name });
  const loaded = await cpuTimed(() => findThings(log, item('load'), blankPicture()));
  console.log(`\nthings: model loaded in ${loaded.ms.toFixed(0)} ms of CPU`);

  const scored = [];
  const times = [];
  const petFaces = { photos: 0, found: 0, kept: 0 };
  for (const [name, label] of Object.entries(labels.images)) {
    if (only && !name.includes(only)) continue;
    const picture = await pictureOf(join(dir, name));
    const { value: seen, ms } = await cpuTimed(() => findThings(log, item(name), picture));
    const { things } = seen;
    times.push(ms);
    if (isPetPhoto(label)) {
      const faces = await findFaces(log, item(name), picture);
      const kept = withoutAnimalFaces(faces, seen.objects);
      petFaces.photos++;
      petFaces.found += faces.length;
      petFaces.kept += kept.length;
      if (verbose || faces.length)
        console.log(`  ${name}: ${faces.length} faces found on an animal photo, ${kept.length} kept as people's`);
    }
    const score = scoreThings(
      things.map((t) => t.label),
      label.expected,
      label.acceptable,
    );
    scored.push(score);
    const missed = score.entries.filter((e) => !e.met).map((e) => e.label);
    const wrong = score.judged.filter((j) => j.verdict === 'wrong').map((j) => j.label);
    if (verbose || missed.length || wrong.length)
      console.log(
        `  ${name}: ${things.map((t) => `${t.label} ${t.score}`).join(', ') || '-'}${missed.length ? `; missed ${missed.join(', ')}` : ''}${wrong.length ? `; wrong ${wrong.join(', ')}` : ''} (${ms.toFixed(0)} ms)`,
      );
  }
  const { all, labels: per } = thingsTotals(scored);
  console.log(
    `  ${scored.length} photos: ${all.met}/${all.expected} expected found, ${all.right} right and ${all.wrong} wrong labels`,
  );
  ratio('things_precision', all.precision);
  ratio('things_recall', all.recall);
  for (const l of per) {
    if (l.precision !== null) ratio(`things_precision_${slug(l.name)}`, l.precision);
    if (l.recall !== null) ratio(`things_recall_${slug(l.name)}`, l.recall);
  }
  ratio('things_ms_per_photo', mean(times));
  console.log(
    `  ${petFaces.photos} photos of animals and no person: ${petFaces.found} faces found, ${petFaces.kept} kept as people's`,
  );
  ratio('faces_kept_on_animal_photos', petFaces.kept);
}

/** A photo whose labels name an animal (COCO's, as the worker knows them) and no person. */
function isPetPhoto(label) {
  const { ANIMAL_LABELS } = worker('./dist/components/things/labels.js');
  const labels = [...label.expected.flat(), ...label.acceptable];
  return labels.some((l) => ANIMAL_LABELS.includes(l)) && !labels.includes('person');
}

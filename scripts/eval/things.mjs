/** Things: the worker's things step on every photo of objects/, scored against objects.json (see scoring.mjs). */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { scoreThings, thingsTotals } from './scoring.mjs';
import { blankPicture, cpuTimed, logger, mean, pictureOf, ratio, requireFrom, slug } from './common.mjs';

const worker = requireFrom('services/worker');

export async function evalThings(dir, { verbose, only }) {
  const labels = JSON.parse(await readFile(join(dir, 'objects.json'), 'utf8'));
  const { findThings } = worker('./dist/pipeline/things.js');
  const log = logger();
  const item = (name) => ({ userId: 'eval', mediaItemId: name, filename: name });
  const loaded = await cpuTimed(() => findThings(log, item('load'), blankPicture()));
  console.log(`\nthings: model loaded in ${loaded.ms.toFixed(0)} ms of CPU`);

  const scored = [];
  const times = [];
  for (const [name, label] of Object.entries(labels.images)) {
    if (only && !name.includes(only)) continue;
    const picture = await pictureOf(join(dir, name));
    const { value: things, ms } = await cpuTimed(() => findThings(log, item(name), picture));
    times.push(ms);
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
}

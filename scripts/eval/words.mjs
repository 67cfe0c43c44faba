/**
 * Words: the worker's OCR step on every image of text/. Recall: the 3–6 labelled words of each image among
 * those read. Precision: only where the source ships the full transcription (text.json's ground_truth) can a
 * word read be judged, so it is measured on those images alone; elsewhere a word missing from the label list
 * may well be on the page.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { scoreWords } from './scoring.mjs';
import { blankPicture, cpuTimed, logger, mean, pictureOf, ratio, requireFrom } from './common.mjs';

const worker = requireFrom('services/worker');

export async function evalWords(dir, { verbose, only }) {
  const labels = JSON.parse(await readFile(join(dir, 'text.json'), 'utf8'));
  const { findWords } = worker('./dist/pipeline/ocr.js');
  const log = logger();
  const item = (name) => ({ userId: 'eval', mediaItemId: name, filename: name });
  const loaded = await cpuTimed(() => findWords(log, item('load'), blankPicture()));
  console.log(`\nwords: engine loaded in ${loaded.ms.toFixed(0)} ms of CPU`);

  let found = 0;
  let expected = 0;
  let correct = 0;
  let read = 0;
  const times = [];
  for (const [name, label] of Object.entries(labels.images)) {
    if (only && !name.includes(only)) continue;
    const picture = await pictureOf(join(dir, name));
    const { value: words, ms } = await cpuTimed(() => findWords(log, item(name), picture));
    times.push(ms);
    const transcription = label.ground_truth ? await readFile(join(dir, label.ground_truth), 'utf8') : null;
    const s = scoreWords(words ?? [], label.words, transcription);
    found += s.found.length;
    expected += label.words.length;
    if (s.read !== null) {
      correct += s.correct;
      read += s.read;
    }
    const unread = words === undefined ? ' (not read: the step failed)' : '';
    console.log(
      `  ${name}: ${s.found.length}/${label.words.length} labelled words${s.missed.length ? ` (missed ${s.missed.join(', ')})` : ''}, ${words?.length ?? 0} words read${s.read !== null ? `, ${s.correct}/${s.read} in the transcription` : ''}${unread} (${ms.toFixed(0)} ms)`,
    );
    if (verbose && s.wrong.length) console.log(`    not in the transcription: ${s.wrong.slice(0, 40).join(' ')}`);
  }
  ratio('ocr_word_recall', expected ? found / expected : null);
  ratio('ocr_word_precision', read ? correct / read : null);
  ratio('ocr_ms_per_photo', mean(times));
}

/**
 * NeDB-specific behaviour beyond the shared contract suite: a write that fails on disk must not
 * leave the failed change visible in memory (NeDB itself does not roll it back).
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../testing/temp';
import { openNedbDocStore } from './nedb';

interface Note {
  _id: string;
  text: string;
}

it('a write that fails on disk leaves memory as the disk is, and the collection recovers when the disk does', async () => {
  const temp = await tempDir('trove-nedb-io-');
  const dir = temp.path;
  const store = await openNedbDocStore({ dir, compactionIntervalMs: 0 });
  const notes = store.collection<Note>('notes');
  await notes.insertOne({ _id: 'a', text: 'kept' });
  const datafile = join(dir, 'notes.db');
  const saved = readFileSync(datafile);

  // The datafile becomes unwritable (a directory in its place): appends fail with EISDIR.
  rmSync(datafile);
  mkdirSync(datafile);
  await expect(notes.insertOne({ _id: 'b', text: 'lost' })).rejects.toThrow(/EISDIR/);
  await expect(notes.updateOne({ _id: 'a' }, { $set: { text: 'changed' } })).rejects.toThrow(/EISDIR/);
  await expect(notes.deleteOne({ _id: 'a' })).rejects.toThrow(/EISDIR/);
  // Nothing that failed to reach the disk is answered.
  expect(await notes.find({})).toEqual([{ _id: 'a', text: 'kept' }]);
  expect(await notes.count({ _id: 'b' })).toBe(0);

  // The disk comes back: writes work again, and a restart reads exactly what was answered.
  rmSync(datafile, { recursive: true });
  writeFileSync(datafile, saved);
  await notes.insertOne({ _id: 'b', text: 'stored now' });
  await store.close();

  const reopened = await openNedbDocStore({ dir, compactionIntervalMs: 0 });
  expect(await reopened.collection<Note>('notes').find({}, { sort: { _id: 1 } })).toEqual([
    { _id: 'a', text: 'kept' },
    { _id: 'b', text: 'stored now' },
  ]);
  await reopened.close();
  await temp.remove();
});

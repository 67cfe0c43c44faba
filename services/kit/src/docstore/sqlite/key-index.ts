import type { IndexSpec } from '../port';
import type { StoredDoc } from '../validate';
import { keyColumn, keyTable, type Db } from './connection';
import { indexRows, isOrderedKey } from './keys';

/**
 * One declared index: its key table (one row per key of each document, see keys.ts) and the statements that keep
 * it in step with the documents. Unique indexes are enforced by the key table's primary key, which then holds the
 * keys only (`id` is a plain column), so SQLite itself refuses a second owner of a key.
 */
export class KeyIndex {
  readonly table: string;
  readonly paths: string[];
  readonly directions: Array<1 | -1>;
  private readonly insertRow;
  private readonly deleteRow;
  private readonly flagUnordered;
  private readonly unflagUnordered;
  private readonly anyUnordered;
  private readonly flagMultikey;
  private readonly unflagMultikey;
  private readonly anyMultikey;

  constructor(
    private readonly db: Db,
    readonly ix: number,
    readonly name: string,
    readonly spec: IndexSpec,
  ) {
    this.table = keyTable(ix);
    this.paths = Object.keys(spec.fields);
    this.directions = Object.values(spec.fields);
    const columns = this.paths.map((_, i) => keyColumn(i));
    const direction = (d: 1 | -1): string => (d === 1 ? 'ASC' : 'DESC');
    const keyOrder = columns.map((column, i) => `${column} ${direction(this.directions[i])}`);
    // The id follows the last field's direction, so that a sort on the fields then `_id` reads the B-tree in order.
    const primary = spec.unique
      ? keyOrder
      : [...keyOrder, `id ${direction(this.directions[this.directions.length - 1])}`];
    // `rid` is the document's row number: reading the documents of index rows seeks by it (an integer key).
    const definitions = [...columns, 'id'].map((c) => `${c} TEXT NOT NULL`).join(', ');
    db.exec(
      `CREATE TABLE IF NOT EXISTS ${this.table} (${definitions}, rid INTEGER NOT NULL, PRIMARY KEY (${primary.join(', ')})) WITHOUT ROWID`,
    );
    const slots = [...columns, 'id', 'rid'].map(() => '?').join(', ');
    this.insertRow = db.prepare(
      `INSERT INTO ${this.table} (${[...columns, 'id', 'rid'].join(', ')}) VALUES (${slots})`,
    );
    this.deleteRow = db.prepare(
      `DELETE FROM ${this.table} WHERE ${[...columns, 'id'].map((c) => `${c} = ?`).join(' AND ')}`,
    );
    this.flagUnordered = db.prepare(`INSERT OR IGNORE INTO _unordered (ix, id) VALUES (${ix}, ?)`);
    this.unflagUnordered = db.prepare(`DELETE FROM _unordered WHERE ix = ${ix} AND id = ?`);
    this.anyUnordered = db.prepare(`SELECT 1 FROM _unordered WHERE ix = ${ix} LIMIT 1`).raw();
    this.flagMultikey = db.prepare(`INSERT OR IGNORE INTO _multikey (ix, id) VALUES (${ix}, ?)`);
    this.unflagMultikey = db.prepare(`DELETE FROM _multikey WHERE ix = ${ix} AND id = ?`);
    this.anyMultikey = db.prepare(`SELECT 1 FROM _multikey WHERE ix = ${ix} LIMIT 1`).raw();
  }

  rowsOf(doc: StoredDoc | undefined): string[][] {
    return doc ? indexRows(doc, this.spec) : [];
  }

  /**
   * Moves the keys of a document (row number `rid`) from `before` to `after` (either may be absent). Throws SQLite's
   * constraint error on a duplicate.
   */
  write(before: StoredDoc | undefined, after: StoredDoc | undefined, rid: number): void {
    const id = (after ?? before)?._id as string;
    const old = new Map(this.rowsOf(before).map((row) => [JSON.stringify(row), row]));
    const now = new Map(this.rowsOf(after).map((row) => [JSON.stringify(row), row]));
    for (const [joined, row] of old) if (!now.has(joined)) this.deleteRow.run(...row, id);
    for (const [joined, row] of now) if (!old.has(joined)) this.insertRow.run(...row, id, rid);
    const unordered = (rows: Map<string, string[]>): boolean =>
      [...rows.values()].some((row) => !row.every(isOrderedKey));
    if (unordered(now)) this.flagUnordered.run(id);
    else if (unordered(old)) this.unflagUnordered.run(id);
    if (now.size > 1) this.flagMultikey.run(id);
    else if (old.size > 1) this.unflagMultikey.run(id);
  }

  /** Whether some document has several key rows here (else a count of rows is a count of documents). */
  multikey(): boolean {
    return this.anyMultikey.get() !== undefined;
  }

  /** Whether the text order of the keys is their BSON order for every document (see keys.ts). */
  ordered(): boolean {
    return this.anyUnordered.get() === undefined;
  }

  drop(): void {
    this.db.exec(`DROP TABLE IF EXISTS ${this.table}`);
    this.db.prepare(`DELETE FROM _unordered WHERE ix = ?`).run(this.ix);
    this.db.prepare(`DELETE FROM _multikey WHERE ix = ?`).run(this.ix);
  }
}

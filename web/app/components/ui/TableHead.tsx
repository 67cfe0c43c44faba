/** A column of `TableHead`: its heading, or its heading and a class (`hide-small` to leave it out on phones). */
export type TableColumn = string | { label: string; className: string };

/**
 * The header row of a table of things with buttons on each row: a heading per column, then the
 * row actions' column, named for screen readers only.
 */
export function TableHead({ columns }: { columns: TableColumn[] }) {
  return (
    <thead>
      <tr>
        {columns.map((column) =>
          typeof column === 'string' ? (
            <th scope="col" key={column}>
              {column}
            </th>
          ) : (
            <th scope="col" key={column.label} className={column.className}>
              {column.label}
            </th>
          ),
        )}
        <th scope="col">
          <span className="visually-hidden">Actions</span>
        </th>
      </tr>
    </thead>
  );
}

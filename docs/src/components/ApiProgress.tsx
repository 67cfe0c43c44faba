import React from 'react';
import type { ReactNode } from 'react';
import { useTroveData } from './troveData';
import styles from './components.module.css';

/** Per OpenAPI tag: how many of its calls a gateway route serves today (computed at build time). */
export default function ApiProgress(): ReactNode {
  const { operations, tags } = useTroveData();
  const ops = Object.values(operations);
  const rows = tags
    .map((tag) => {
      const mine = ops.filter((o) => o.tags.includes(tag));
      return { tag, total: mine.length, served: mine.filter((o) => o.available).length };
    })
    .filter((r) => r.total > 0);
  const served = ops.filter((o) => o.available).length;
  return (
    <table>
      <thead>
        <tr>
          <th>API area</th>
          <th>calls served / in the contract</th>
          <th>status</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.tag} data-tag={r.tag}>
            <td>
              <a href={`/api/#tag/${r.tag}`}>{r.tag}</a>
            </td>
            <td>
              {r.served} / {r.total}
            </td>
            <td>
              <span className={r.served === r.total ? styles.available : styles.planned}>
                {r.served === r.total ? 'available' : r.served > 0 ? 'in progress' : 'planned'}
              </span>
            </td>
          </tr>
        ))}
        <tr>
          <td>
            <strong>all</strong>
          </td>
          <td>
            <strong>
              {served} / {ops.length}
            </strong>
          </td>
          <td />
        </tr>
      </tbody>
    </table>
  );
}

/** The status of an area of the product from its API calls: available, in progress or planned. */
export function AreaStatus({ tags }: { tags: string[] }): ReactNode {
  const { operations, tags: known } = useTroveData();
  for (const t of tags) if (!known.includes(t)) throw new Error(`Unknown OpenAPI tag "${t}": not in openapi/openapi.yaml`);
  const mine = Object.values(operations).filter((o) => o.tags.some((t) => tags.includes(t)));
  const served = mine.filter((o) => o.available).length;
  const label = served === mine.length ? 'available' : served > 0 ? `in progress (${served} of ${mine.length} calls)` : 'planned';
  return <span className={served === mine.length ? styles.available : styles.planned}>{label}</span>;
}

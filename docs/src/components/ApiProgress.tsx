import React from 'react';
import type { ReactNode } from 'react';
import { useTroveData } from './troveData';
import styles from './components.module.css';

/**
 * Per OpenAPI tag: its calls, every one served by a gateway route (the docs build fails on a call
 * of the contract without one, see docs/plugins/trove-sources.ts).
 */
export default function ApiProgress(): ReactNode {
  const { operations, tags } = useTroveData();
  const ops = Object.values(operations);
  const rows = tags
    .map((tag) => ({ tag, total: ops.filter((o) => o.tags.includes(tag)).length }))
    .filter((r) => r.total > 0);
  return (
    <table>
      <thead>
        <tr>
          <th>API area</th>
          <th>calls served</th>
          <th>status</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.tag} data-tag={r.tag}>
            <td>
              <a href={`/api/#tag/${r.tag}`}>{r.tag}</a>
            </td>
            <td>{r.total}</td>
            <td>
              <span className={styles.available}>available</span>
            </td>
          </tr>
        ))}
        <tr>
          <td>
            <strong>all</strong>
          </td>
          <td>
            <strong>{ops.length}</strong>
          </td>
          <td />
        </tr>
      </tbody>
    </table>
  );
}

/** The status of an area of the product, named by its OpenAPI tags: every call of the contract is served, so available. */
export function AreaStatus({ tags }: { tags: string[] }): ReactNode {
  const { tags: known } = useTroveData();
  for (const t of tags)
    if (!known.includes(t)) throw new Error(`Unknown OpenAPI tag "${t}": not in openapi/openapi.yaml`);
  return <span className={styles.available}>available</span>;
}

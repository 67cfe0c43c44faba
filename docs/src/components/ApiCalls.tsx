import React from 'react';
import type { ReactNode } from 'react';
import { AUTH_LABELS, useOperations } from './troveData';
import styles from './components.module.css';

interface Props {
  /** operationIds from openapi/openapi.yaml */
  ops?: string[];
  /** OpenAPI tags: every operation with one of them */
  tags?: string[];
}

/**
 * The API calls behind a feature, straight from openapi/openapi.yaml, each linked to the API
 * reference and marked available (a gateway route serves it) or planned.
 */
export default function ApiCalls({ ops, tags }: Props): ReactNode {
  const list = useOperations(ops, tags);
  return (
    <table className={styles.apiTable}>
      <thead>
        <tr>
          <th>Call</th>
          <th>What it does</th>
          <th>Credentials</th>
          <th>Status</th>
        </tr>
      </thead>
      <tbody>
        {list.map((o) => (
          <tr key={o.operationId}>
            <td>
              {/* a full page load, so the reference scrolls to the operation */}
              <a href={`/api/#operation/${o.operationId}`} className={styles.call}>
                <span className={`${styles.method} ${styles[o.method]}`}>{o.method.toUpperCase()}</span> <code>{o.path}</code>
              </a>
            </td>
            <td>{o.summary}</td>
            <td>{o.auth.length === 0 ? 'none' : o.auth.map((a) => AUTH_LABELS[a] ?? a).join(' or ')}</td>
            <td>
              <span className={o.available ? styles.available : styles.planned}>{o.available ? 'available' : 'planned'}</span>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

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
 * reference (every one is served by a gateway route: the docs build checks it).
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
        </tr>
      </thead>
      <tbody>
        {list.map((o) => (
          <tr key={o.operationId} data-operation={o.operationId}>
            <td>
              {/* a full page load, so the reference scrolls to the operation */}
              <a href={`/api/#operation/${o.operationId}`} className={styles.call}>
                <span className={`${styles.method} ${styles[o.method]}`}>{o.method.toUpperCase()}</span>{' '}
                <code>{o.path}</code>
              </a>
            </td>
            <td>{o.summary}</td>
            <td>{o.auth.length === 0 ? 'none' : o.auth.map((a) => AUTH_LABELS[a] ?? a).join(' or ')}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

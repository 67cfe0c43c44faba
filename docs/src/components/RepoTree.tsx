import React from 'react';
import type { ReactNode } from 'react';
import type { TreeEntry } from '@site/plugins/trove-sources';
import { useTroveData } from './troveData';
import styles from './components.module.css';

interface Node {
  entry: TreeEntry;
  children: Node[];
}

function nest(entries: TreeEntry[]): Node[] {
  const roots: Node[] = [];
  const byPath = new Map<string, Node>();
  for (const entry of entries) {
    const node: Node = { entry, children: [] };
    byPath.set(entry.path, node);
    const parent = entry.path.includes('/') ? byPath.get(entry.path.slice(0, entry.path.lastIndexOf('/'))) : undefined;
    (parent ? parent.children : roots).push(node);
  }
  return roots;
}

function lines(nodes: Node[], prefix: string, out: ReactNode[]): void {
  nodes.forEach((n, i) => {
    const last = i === nodes.length - 1;
    const name = n.entry.path.slice(n.entry.path.lastIndexOf('/') + 1) + (n.entry.kind === 'dir' ? '/' : '');
    out.push(
      <div key={n.entry.path} className={styles.treeLine} data-path={n.entry.path}>
        <span className={styles.treeGuide}>{prefix + (last ? '└── ' : '├── ')}</span>
        <span className={n.entry.kind === 'dir' ? styles.treeDir : styles.treeFile}>{name}</span>
        {n.entry.description ? <span className={styles.treeNote}> {n.entry.description.replace(/`/g, '')}</span> : null}
      </div>,
    );
    lines(n.children, prefix + (last ? '    ' : '│   '), out);
  });
}

/** The repository tree, read with `git ls-files` when the site was built. */
export function RepoTree(): ReactNode {
  const { tree } = useTroveData();
  const out: ReactNode[] = [];
  lines(nest(tree), '', out);
  return (
    <div className={styles.tree} role="tree" aria-label="Repository tree">
      <div className={styles.treeLine}>
        <span className={styles.treeDir}>trove/</span>
      </div>
      {out}
    </div>
  );
}

/** The npm workspaces of the root package.json. */
export function Workspaces(): ReactNode {
  const { workspaces, tree, repoUrl } = useTroveData();
  const describe = (dir: string): string => (tree.find((e) => e.path === dir)?.description ?? '').replace(/`/g, '');
  return (
    <table>
      <thead>
        <tr>
          <th>Folder</th>
          <th>Package</th>
          <th>What</th>
        </tr>
      </thead>
      <tbody>
        {workspaces.map((w) => (
          <tr key={w.dir} data-workspace={w.dir}>
            <td>
              <a href={`${repoUrl}/tree/main/${w.dir}`}>
                <code>{w.dir}</code>
              </a>
            </td>
            <td>
              <code>{w.name}</code>
            </td>
            <td>{describe(w.dir).replace(/^workspace [^:]+: /, '')}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

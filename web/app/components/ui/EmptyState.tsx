import type { ReactNode } from 'react';
import { Icon } from './Icon';
import type { IconName } from './Icon';
import './EmptyState.css';

/** What a list says when it has nothing to show: an icon, a heading, and what to do about it. */
export function EmptyState({ icon, title, children }: { icon?: IconName; title: string; children?: ReactNode }) {
  return (
    <div className="empty">
      {icon ? <Icon name={icon} size={56} /> : null}
      <h2>{title}</h2>
      {children}
    </div>
  );
}

import { Link } from '@remix-run/react';
import type { ReactNode } from 'react';
import { EmptyState } from './ui/EmptyState';
import type { IconName } from './ui/Icon';
import './ExploreCard.css';

/** The whole list of places, things or people: cards in a grid. */
export function ExploreListPage({ title, count, icon, empty, tools, children }: { title: string; count: number; icon: IconName; empty: string; tools?: ReactNode; children: ReactNode }) {
  return (
    <>
      <div className="page-head">
        <p className="crumb">
          <Link to="/explore">Explore</Link>
        </p>
        <h1>{title}</h1>
        {tools}
      </div>
      {count > 0 ? (
        <ul className="explore-list">{children}</ul>
      ) : (
        <EmptyState icon={icon} title={`No ${title.toLowerCase()} yet`}>
          <p>{empty}</p>
        </EmptyState>
      )}
    </>
  );
}

import { Link } from '@remix-run/react';
import type { ReactNode } from 'react';
import { EmptyState } from './ui/EmptyState';
import type { IconName } from './ui/Icon';
import './ExploreCard.css';

interface ListPageProps {
  title: string;
  count: number;
  icon: IconName;
  /** What an empty list says, and its heading (default "No <title> yet"). */
  empty: string;
  emptyTitle?: string;
  /** Controls beside the heading, and notes or forms between it and the list. */
  tools?: ReactNode;
  before?: ReactNode;
  children: ReactNode;
}

/** The whole list of places, things or people: cards in a grid. */
export function ExploreListPage({ title, count, icon, empty, emptyTitle, tools, before, children }: ListPageProps) {
  return (
    <>
      <div className="page-head">
        <p className="crumb">
          <Link to="/explore">Explore</Link>
        </p>
        <h1>{title}</h1>
        {tools}
      </div>
      {before}
      {count > 0 ? (
        <ul className="explore-list">{children}</ul>
      ) : (
        <EmptyState icon={icon} title={emptyTitle ?? `No ${title.toLowerCase()} yet`}>
          <p>{empty}</p>
        </EmptyState>
      )}
    </>
  );
}

import { json } from '@remix-run/node';
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import type { ReactNode } from 'react';
import type { Person } from '~/api/types';
import { PersonCard, PlaceCard, ThingCard } from '~/components/ExploreCard';
import { apiFailure, requireSession } from '~/lib/auth.server';
import { listPeople, listPlaces, listThings } from '~/lib/explore.server';
import '~/styles/explore.css';

export { RouteErrorBoundary as ErrorBoundary } from '~/components/ErrorPage';
export const meta: MetaFunction = () => [{ title: 'Explore · Trove' }];

/** How many entries a row shows; its heading links to the whole list. */
const ROW_LENGTH = 20;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const session = await requireSession(request, context);
  const { apiUrl } = context.config;
  try {
    const [places, things, people] = await Promise.all([
      listPlaces(apiUrl, session.api, ROW_LENGTH),
      listThings(apiUrl, session.api, ROW_LENGTH),
      // People come from their own service: a library without it still explores places and things.
      listPeople(apiUrl, session.api, { limit: ROW_LENGTH }).catch(() => null as Person[] | null),
    ]);
    return json({ places, things, people }, { headers: await session.headers() });
  } catch (err) {
    throw apiFailure(err);
  }
}

/** Each row: its heading (linking to the whole list at /explore/<kind>) and what it says while empty. */
const ROWS = {
  people: { title: 'People', empty: 'Faces show up here once your photos are processed.' },
  places: { title: 'Places', empty: 'Photos with a location show up here by city.' },
  things: { title: 'Things', empty: 'Things recognised in your photos show up here.' },
} as const;

function Row<T>({ kind, items, card }: { kind: keyof typeof ROWS; items: T[]; card: (item: T) => ReactNode }) {
  const { title, empty } = ROWS[kind];
  const id = `row-${kind}`;
  return (
    <section className="explore-row" aria-labelledby={id}>
      <div className="explore-row-head">
        <h2 id={id}>{title}</h2>
        {items.length > 0 ? (
          <Link to={`/explore/${kind}`} aria-label={`See all ${title.toLowerCase()}`}>
            See all
          </Link>
        ) : null}
      </div>
      {items.length > 0 ? <ul className="explore-list row">{items.map(card)}</ul> : <p className="muted">{empty}</p>}
    </section>
  );
}

export default function Explore() {
  const { places, things, people } = useLoaderData<typeof loader>();
  return (
    <>
      <div className="page-head">
        <h1>Explore</h1>
      </div>
      {people ? <Row kind="people" items={people} card={(p) => <PersonCard key={p.id} person={p} />} /> : null}
      <Row kind="places" items={places} card={(p) => <PlaceCard key={p.id} place={p} />} />
      <Row kind="things" items={things} card={(t) => <ThingCard key={t.id} thing={t} />} />
    </>
  );
}

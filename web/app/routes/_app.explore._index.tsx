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

function Row({
  id,
  title,
  to,
  empty,
  children,
  count,
}: {
  id: string;
  title: string;
  to: string;
  empty: string;
  count: number;
  children: ReactNode;
}) {
  return (
    <section className="explore-row" aria-labelledby={id}>
      <div className="explore-row-head">
        <h2 id={id}>{title}</h2>
        {count > 0 ? (
          <Link to={to} aria-label={`See all ${title.toLowerCase()}`}>
            See all
          </Link>
        ) : null}
      </div>
      {count > 0 ? <ul className="explore-list row">{children}</ul> : <p className="muted">{empty}</p>}
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
      {people ? (
        <Row
          id="row-people"
          title="People"
          to="/explore/people"
          count={people.length}
          empty="Faces show up here once your photos are processed."
        >
          {people.map((p) => (
            <PersonCard key={p.id} person={p} />
          ))}
        </Row>
      ) : null}
      <Row
        id="row-places"
        title="Places"
        to="/explore/places"
        count={places.length}
        empty="Photos with a location show up here by city."
      >
        {places.map((p) => (
          <PlaceCard key={p.id} place={p} />
        ))}
      </Row>
      <Row
        id="row-things"
        title="Things"
        to="/explore/things"
        count={things.length}
        empty="Things recognised in your photos show up here."
      >
        {things.map((t) => (
          <ThingCard key={t.id} thing={t} />
        ))}
      </Row>
    </>
  );
}

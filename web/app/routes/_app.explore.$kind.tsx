/** The whole list of places (/explore/places) or things (/explore/things); people have their own page. */
import { json } from '@remix-run/node';
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { PlaceCard, ThingCard } from '~/components/ExploreCard';
import { ExploreListPage } from '~/components/ExploreListPage';
import { apiFailure, requireSession } from '~/lib/auth.server';
import { listPlaces, listThings } from '~/lib/explore.server';

export { RouteErrorBoundary as ErrorBoundary } from '~/components/ErrorPage';

const TITLE = { places: 'Places', things: 'Things' } as const;
type ListKind = keyof typeof TITLE;

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data ? TITLE[data.kind] : 'Explore'} · Trove` },
];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const kind = params.kind;
  if (kind !== 'places' && kind !== 'things') throw json({ message: 'Not found' }, { status: 404 });
  const session = await requireSession(request, context);
  const { apiUrl } = context.config;
  try {
    const lists = {
      places: kind === 'places' ? await listPlaces(apiUrl, session.api) : [],
      things: kind === 'things' ? await listThings(apiUrl, session.api) : [],
    };
    return json({ kind: kind as ListKind, ...lists }, { headers: await session.headers() });
  } catch (err) {
    throw apiFailure(err);
  }
}

const EMPTY: Record<ListKind, string> = {
  places: 'Photos with a location show up here by city.',
  things: 'Things recognised in your photos show up here.',
};
const ICON = { places: 'place', things: 'thing' } as const;

export default function ExploreList() {
  const { kind, places, things } = useLoaderData<typeof loader>();
  return (
    <ExploreListPage title={TITLE[kind]} icon={ICON[kind]} count={places.length + things.length} empty={EMPTY[kind]}>
      {places.map((p) => (
        <PlaceCard key={p.id} place={p} />
      ))}
      {things.map((t) => (
        <ThingCard key={t.id} thing={t} />
      ))}
    </ExploreListPage>
  );
}

import { json } from '@remix-run/node';
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { PlaceCard } from '~/components/ExploreCard';
import { ExploreListPage } from '~/components/ExploreListPage';
import { apiFailure, requireSession } from '~/lib/auth.server';
import { listPlaces } from '~/lib/explore.server';

export { RouteErrorBoundary as ErrorBoundary } from '~/components/ErrorPage';
export const meta: MetaFunction = () => [{ title: 'Places · Trove' }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const session = await requireSession(request, context);
  const places = await listPlaces(context.config.apiUrl, session.api).catch((err: unknown) => {
    throw apiFailure(err);
  });
  return json({ places }, { headers: await session.headers() });
}

export default function Places() {
  const { places } = useLoaderData<typeof loader>();
  return (
    <ExploreListPage title="Places" icon="place" count={places.length} empty="Photos with a location show up here by city.">
      {places.map((p) => (
        <PlaceCard key={p.id} place={p} />
      ))}
    </ExploreListPage>
  );
}

import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { ExploreEntryPage } from '~/components/ExploreEntryPage';
import { PlaceMap } from '~/components/PlaceMap';
import { loadExplorePage } from '~/lib/explore-page-loader.server';
import { placeLabel } from '~/lib/explore';
import '~/styles/explore.css';

export { RouteErrorBoundary as ErrorBoundary } from '~/components/ErrorPage';
export { keepOnViewerChange as shouldRevalidate } from '~/lib/revalidate';
export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data ? placeLabel(data.entry) : 'Place'} · Trove` },
];

export function loader({ request, context, params }: LoaderFunctionArgs) {
  return loadExplorePage(request, context, params, 'place', { mapTileUrl: context.config.mapTileUrl ?? null });
}

export default function PlacePage() {
  const { entry: place, items, focus, mapTileUrl } = useLoaderData<typeof loader>();
  const label = placeLabel(place);
  const region = [place.town, place.state].filter((p) => p && p !== place.name).join(', ');
  return (
    <ExploreEntryPage
      kind="place"
      id={place.id}
      title={label}
      label={label}
      count={place.mediaItemsCount}
      items={items}
      focus={focus}
    >
      {region ? <p className="muted">{region}</p> : null}
      {mapTileUrl && place.latitude !== null && place.longitude !== null ? (
        <PlaceMap template={mapTileUrl} latitude={place.latitude} longitude={place.longitude} label={label} />
      ) : null}
    </ExploreEntryPage>
  );
}

import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { ExploreEntryPage } from '~/components/ExploreEntryPage';
import { loadExplorePage } from '~/lib/explore-page-loader.server';

export { RouteErrorBoundary as ErrorBoundary } from '~/components/ErrorPage';
export { keepOnViewerChange as shouldRevalidate } from '~/lib/revalidate';
export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.entry.name ?? 'Thing'} · Trove` }];

export function loader({ request, context, params }: LoaderFunctionArgs) {
  return loadExplorePage(request, context, params, 'thing');
}

export default function ThingPage() {
  const { entry: thing, items, focus } = useLoaderData<typeof loader>();
  return (
    <ExploreEntryPage
      kind="thing"
      id={thing.id}
      title={thing.name}
      label={thing.name}
      count={thing.mediaItemsCount}
      items={items}
      focus={focus}
    />
  );
}

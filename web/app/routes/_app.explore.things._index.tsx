import { json } from '@remix-run/node';
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { ThingCard } from '~/components/ExploreCard';
import { ExploreListPage } from '~/components/ExploreListPage';
import { apiFailure, requireSession } from '~/lib/auth.server';
import { listThings } from '~/lib/explore.server';

export { RouteErrorBoundary as ErrorBoundary } from '~/components/ErrorPage';
export const meta: MetaFunction = () => [{ title: 'Things · Trove' }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const session = await requireSession(request, context);
  const things = await listThings(context.config.apiUrl, session.api).catch((err: unknown) => {
    throw apiFailure(err);
  });
  return json({ things }, { headers: await session.headers() });
}

export default function Things() {
  const { things } = useLoaderData<typeof loader>();
  return (
    <ExploreListPage title="Things" icon="thing" count={things.length} empty="Things recognised in your photos show up here.">
      {things.map((p) => (
        <ThingCard key={p.id} thing={p} />
      ))}
    </ExploreListPage>
  );
}

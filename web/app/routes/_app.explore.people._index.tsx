import { json } from '@remix-run/node';
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { PersonCard } from '~/components/ExploreCard';
import { ExploreListPage } from '~/components/ExploreListPage';
import { apiFailure, requireSession } from '~/lib/auth.server';
import { listPeople } from '~/lib/explore.server';

export { RouteErrorBoundary as ErrorBoundary } from '~/components/ErrorPage';
export const meta: MetaFunction = () => [{ title: 'People · Trove' }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const session = await requireSession(request, context);
  const people = await listPeople(context.config.apiUrl, session.api).catch((err: unknown) => {
    throw apiFailure(err);
  });
  return json({ people }, { headers: await session.headers() });
}

export default function People() {
  const { people } = useLoaderData<typeof loader>();
  return (
    <ExploreListPage title="People" icon="person" count={people.length} empty="Faces show up here once your photos are processed.">
      {people.map((p) => (
        <PersonCard key={p.id} person={p} />
      ))}
    </ExploreListPage>
  );
}

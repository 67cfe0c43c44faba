/** GET: the library's months and their counts, newest first (the Photos page asks after its first paint). */
import { json } from '@remix-run/node';
import type { LoaderFunctionArgs } from '@remix-run/node';
import { apiFailure, requireSession } from '~/lib/auth.server';
import { timelineBuckets } from '~/lib/media-items.server';

export async function loader({ request, context }: LoaderFunctionArgs) {
  try {
    const session = await requireSession(request, context, 'api');
    const buckets = await timelineBuckets(session.api);
    return json({ buckets }, { headers: await session.headers({ 'Cache-Control': 'no-store' }) });
  } catch (err) {
    throw apiFailure(err);
  }
}

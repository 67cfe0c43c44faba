/** GET ?md=MMDD: items taken on this day in earlier years (the browser sends its own today). */
import { json } from '@remix-run/node';
import type { LoaderFunctionArgs } from '@remix-run/node';
import { ok } from '~/api/client.server';
import { apiFailure, requireSession } from '~/lib/auth.server';
import { localizeItems } from '~/lib/content-url.server';

/** A month and day, `MMDD`: the browser sends its own today. */
const MONTH_DATE = /^(0[1-9]|1[0-2])(0[1-9]|[12][0-9]|3[01])$/;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const md = new URL(request.url).searchParams.get('md') ?? '';
  if (!MONTH_DATE.test(md)) return json({ message: 'md must be MMDD' }, { status: 400 });
  try {
    const session = await requireSession(request, context, 'api');
    const items = await ok(
      session.api.GET('/v1/yearsAgo/{monthDate}/mediaItems', {
        params: { path: { monthDate: md }, query: { limit: 50 } },
      }),
    );
    return json(
      { items: localizeItems(items, context.config.apiUrl) },
      { headers: await session.headers({ 'Cache-Control': 'no-store' }) },
    );
  } catch (err) {
    throw apiFailure(err);
  }
}

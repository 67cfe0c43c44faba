/** The loader of an explore entry's page: the entry, and its media items like any list page. */
import { json } from '@remix-run/node';
import type { Params } from '@remix-run/react';
import type { ExploreKind, Person, Place, Thing } from '~/api/types';
import { apiFailure, requireSession } from './auth.server';
import type { AuthedSession } from './auth.server';
import type { WebContext } from './context.server';
import { getPerson, getPlace, getThing } from './explore.server';
import { isUuid } from './ids';
import { loadMediaPage } from './media-page-loader.server';

interface Entries {
  place: Place;
  thing: Thing;
  person: Person;
}

const GET = { place: getPlace, thing: getThing, person: getPerson } as const;

export async function loadExplorePage<K extends ExploreKind, E extends object = object>(
  request: Request,
  context: WebContext,
  params: Params,
  kind: K,
  /** More for the page: fields, or what to read with the session for them. */
  extra?: E | ((session: AuthedSession, id: string) => Promise<E>),
) {
  const id = params.id;
  if (!isUuid(id)) throw json({ message: 'Not found' }, { status: 404 });
  const session = await requireSession(request, context);
  const entry = (await GET[kind](context.config.apiUrl, session.api, id).catch((err: unknown) => {
    throw apiFailure(err);
  })) as Entries[K];
  const more =
    typeof extra === 'function'
      ? await extra(session, id).catch((err: unknown) => {
          throw apiFailure(err);
        })
      : extra;
  return loadMediaPage(request, context, { kind, id }, { entry, ...(more as E) });
}

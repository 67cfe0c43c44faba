import { json } from '@remix-run/node';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useFetcher, useLoaderData } from '@remix-run/react';
import { useEffect, useId, useRef } from 'react';
import { CoverPicker } from '~/components/CoverPicker';
import { ExploreEntryPage } from '~/components/ExploreEntryPage';
import { Button } from '~/components/ui/Button';
import { FormError } from '~/components/ui/FormError';
import { Switch } from '~/components/ui/Switch';
import { useToast } from '~/components/ui/Toasts';
import { apiFailure, requireSession } from '~/lib/auth.server';
import { loadExplorePage } from '~/lib/explore-page-loader.server';
import { updatePerson } from '~/lib/explore.server';
import { faceStyle } from '~/lib/explore';
import { isUuid } from '~/lib/ids';
import { personName } from '~/lib/person-form';
import '~/styles/explore.css';

export { RouteErrorBoundary as ErrorBoundary } from '~/components/ErrorPage';
export { keepOnViewerChange as shouldRevalidate } from '~/lib/revalidate';
export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.entry.name || 'Person'} · Trove` }];

export function loader({ request, context, params }: LoaderFunctionArgs) {
  return loadExplorePage(request, context, params, 'person');
}

/** The change a form asks for: intent=name (name), intent=hide (hidden=true|false), intent=cover (cover: a photo's id, empty for the newest). */
function personChange(form: FormData): { name?: string; hidden?: boolean; coverMediaItemId?: string | null } | string {
  const intent = form.get('intent');
  if (intent === 'name') {
    const name = personName(form.get('name'));
    return name ? { name } : 'Give a name of 1 to 100 characters.';
  }
  if (intent === 'hide') return { hidden: form.get('hidden') === 'true' };
  if (intent === 'cover') {
    const cover = form.get('cover');
    return cover === ''
      ? { coverMediaItemId: null }
      : isUuid(cover)
        ? { coverMediaItemId: cover }
        : 'Choose one of their photos.';
  }
  return 'Unknown action.';
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const id = params.id;
  if (!isUuid(id)) throw json({ message: 'Not found' }, { status: 404 });
  // The session first: nobody without one gets their body read.
  const session = await requireSession(request, context);
  const change = personChange(await request.formData());
  if (typeof change === 'string') return json({ error: change }, { status: 400 });
  try {
    await updatePerson(session.api, id, change);
    return json({ error: null }, { headers: await session.headers() });
  } catch (err) {
    throw apiFailure(err);
  }
}

export default function PersonPage() {
  const { entry: person, items, focus } = useLoaderData<typeof loader>();
  const naming = useFetcher<typeof action>({ key: `person-name-${person.id}` });
  const hiding = useFetcher<typeof action>({ key: `person-hide-${person.id}` });
  const notify = useToast();
  const inputId = useId();
  const formRef = useRef<HTMLFormElement>(null);
  // What is being saved shows at once (optimistic); the loader's copy once saved.
  const pendingName = naming.formData?.get('name');
  // Unnamed people have a null (or, in newer servers, empty) name.
  const name = (typeof pendingName === 'string' ? pendingName.trim() : person.name) || null;
  const pendingHidden = hiding.formData?.get('hidden');
  const hidden = typeof pendingHidden === 'string' ? pendingHidden === 'true' : !!person.hidden;
  const error = naming.data?.error ?? hiding.data?.error ?? null;

  useEffect(() => {
    if (naming.state === 'idle' && naming.data && !naming.data.error) formRef.current?.reset();
  }, [naming.state, naming.data]);

  // The switch submits its form (so it works before scripts load); with them, a toast offers to undo.
  const announce = (on: boolean) => {
    const who = name ?? 'This person';
    notify(on ? `${who} is hidden from People` : `${who} shows in People again`, {
      action: { label: 'Undo', run: () => hiding.submit({ intent: 'hide', hidden: String(!on) }, { method: 'post' }) },
    });
  };
  const face = person.coverMediaItemFace && 'thumbnail' in person.coverMediaItemFace ? person.coverMediaItemFace : null;

  return (
    <ExploreEntryPage
      kind="person"
      id={person.id}
      title={name ?? <span className="muted">Add a name</span>}
      label={name ?? 'this person'}
      count={person.mediaItemsCount}
      items={items}
      focus={focus}
    >
      <CoverPicker
        personId={person.id}
        label={name ?? 'this person'}
        face={face ? faceStyle(face.thumbnail, face.boundingBox) : null}
        coverMediaItemId={person.coverMediaItemId}
        photos={items.filter((i) => i.mediaItemType !== 'video')}
      />
      <div className="person-tools">
        <naming.Form method="post" ref={formRef} className="person-tools">
          <input type="hidden" name="intent" value="name" />
          <label htmlFor={inputId}>{person.name ? 'Rename' : 'Name this person'}</label>
          <input
            id={inputId}
            type="text"
            name="name"
            key={person.name ?? ''}
            defaultValue={person.name ?? ''}
            placeholder="Add a name"
            maxLength={100}
            required
            autoComplete="off"
          />
          <Button type="submit" size="small" disabled={naming.state !== 'idle'}>
            Save name
          </Button>
        </naming.Form>
        <hiding.Form method="post" onSubmit={() => announce(!hidden)}>
          <input type="hidden" name="intent" value="hide" />
          <input type="hidden" name="hidden" value={String(!hidden)} />
          <Switch type="submit" on={hidden} label="Hidden from People" />
        </hiding.Form>
      </div>
      <FormError>{error}</FormError>
    </ExploreEntryPage>
  );
}

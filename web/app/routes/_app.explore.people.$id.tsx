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
import { assignPersonFace, listPeople, listPersonFaces, removePersonFace, updatePerson } from '~/lib/explore.server';
import { faceStyle } from '~/lib/explore';
import { isUuid } from '~/lib/ids';
import { faceCorrection, personLabel, personName } from '~/lib/person-form';
import '~/styles/explore.css';

export { RouteErrorBoundary as ErrorBoundary } from '~/components/ErrorPage';
export { keepOnViewerChange as shouldRevalidate } from '~/lib/revalidate';
export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.entry.name || 'Person'} · Trove` }];

export function loader({ request, context, params }: LoaderFunctionArgs) {
  const apiUrl = context.config.apiUrl;
  // Their faces (to correct), and the other people a face may move to.
  return loadExplorePage(request, context, params, 'person', async (session, id) => {
    const [faces, people] = await Promise.all([
      listPersonFaces(apiUrl, session.api, id),
      listPeople(apiUrl, session.api, { limit: 100 }),
    ]);
    return {
      faces,
      others: people.filter((p) => p.id !== id).map((p) => ({ id: p.id, label: personLabel(p) })),
    };
  });
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
  const form = await request.formData();
  const intent = form.get('intent');
  if (intent === 'not-person' || intent === 'move-face') {
    const correction = faceCorrection(form, id);
    if (!correction) return json({ error: 'Choose a face and another person.' }, { status: 400 });
    try {
      if (correction.kind === 'remove') await removePersonFace(session.api, id, correction.faceId);
      else await assignPersonFace(session.api, correction.personId, correction.faceId);
      return json({ error: null }, { headers: await session.headers() });
    } catch (err) {
      throw apiFailure(err);
    }
  }
  const change = personChange(form);
  if (typeof change === 'string') return json({ error: change }, { status: 400 });
  try {
    await updatePerson(session.api, id, change);
    return json({ error: null }, { headers: await session.headers() });
  } catch (err) {
    throw apiFailure(err);
  }
}

export default function PersonPage() {
  const { entry: person, items, focus, faces, others } = useLoaderData<typeof loader>();
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
      <PersonFaces personId={person.id} faces={faces} others={others} />
    </ExploreEntryPage>
  );
}

/**
 * The person's faces, to correct grouping: "Not this person" takes a face away (it is never grouped
 * into them again); "Move to" gives it to another person for good.
 */
function PersonFaces({
  personId,
  faces,
  others,
}: {
  personId: string;
  faces: Array<{ id: string; thumbnail: string; boundingBox: { x: number; y: number; width: number; height: number } }>;
  others: Array<{ id: string; label: string }>;
}) {
  const fixing = useFetcher<typeof action>({ key: `person-faces-${personId}` });
  if (faces.length === 0) return null;
  const busy = fixing.state !== 'idle';
  return (
    <details className="person-faces">
      <summary>Faces ({faces.length})</summary>
      <ul>
        {faces.map((face) => (
          <li key={face.id}>
            <span
              className="person-face"
              style={faceStyle(face.thumbnail, face.boundingBox)}
              role="img"
              aria-label="Face"
            />
            <fixing.Form method="post">
              <input type="hidden" name="face" value={face.id} />
              <Button type="submit" size="small" name="intent" value="not-person" disabled={busy}>
                Not this person
              </Button>
            </fixing.Form>
            {others.length > 0 ? (
              <fixing.Form method="post" className="person-face-move">
                <input type="hidden" name="intent" value="move-face" />
                <input type="hidden" name="face" value={face.id} />
                <select name="to" aria-label="Move to" defaultValue="" required>
                  <option value="" disabled>
                    Move to…
                  </option>
                  {others.map((o) => (
                    <option key={o.id} value={o.id}>
                      {o.label}
                    </option>
                  ))}
                </select>
                <Button type="submit" size="small" disabled={busy}>
                  Move
                </Button>
              </fixing.Form>
            ) : null}
          </li>
        ))}
      </ul>
      <FormError>{fixing.data?.error ?? null}</FormError>
    </details>
  );
}

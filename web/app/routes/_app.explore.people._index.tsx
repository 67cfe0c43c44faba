/**
 * The whole list of people (/explore/people): `?hidden=true` lists the people the user hid instead;
 * `?select=1` shows a check on every card to pick people to merge, and `?merge=…&merge=…` asks to
 * confirm before merging them (which cannot be undone). Plain links and forms: it all works before
 * scripts load.
 */
import { json, redirect } from '@remix-run/node';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { useEffect, useState } from 'react';
import { PersonCard } from '~/components/ExploreCard';
import { ExploreListPage } from '~/components/ExploreListPage';
import { MergeConfirm } from '~/components/MergeConfirm';
import { Button, buttonClass } from '~/components/ui/Button';
import { FormError } from '~/components/ui/FormError';
import { Switch } from '~/components/ui/Switch';
import { apiFailure, requireSession } from '~/lib/auth.server';
import { listPeople, mergePeople } from '~/lib/explore.server';
import { isUuid } from '~/lib/ids';
import { mergeRequest, peopleListPath, personLabel } from '~/lib/person-form';
import '~/styles/explore.css';

export { RouteErrorBoundary as ErrorBoundary } from '~/components/ErrorPage';
export const meta: MetaFunction = () => [{ title: 'People · Trove' }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const params = new URL(request.url).searchParams;
  const showHidden = params.get('hidden') === 'true';
  const session = await requireSession(request, context);
  try {
    const people = await listPeople(context.config.apiUrl, session.api, { hidden: showHidden });
    const picked = params.getAll('merge');
    // Only people of this list can be merged from it (the ids come from the address bar).
    const merging = picked.length ? people.filter((p) => picked.includes(p.id)) : [];
    return json(
      {
        people,
        showHidden,
        selecting: params.has('select') || picked.length > 0,
        merging: merging.length >= 2 ? merging : null,
        tooFew: picked.length > 0 && merging.length < 2,
        merged: isUuid(params.get('merged')) ? (people.find((p) => p.id === params.get('merged')) ?? null) : null,
      },
      { headers: await session.headers({ 'Cache-Control': 'no-store' }) },
    );
  } catch (err) {
    throw apiFailure(err);
  }
}

/** POST intent=merge with `person` (every one to merge) and `into` (the one that stays, among them). */
export async function action({ request, context }: ActionFunctionArgs) {
  // The session first: nobody without one gets their body read.
  const session = await requireSession(request, context);
  const form = await request.formData();
  const merge = mergeRequest(form);
  if (!merge) return json({ error: 'Choose two or more people, and the one to keep.' }, { status: 400 });
  try {
    await mergePeople(session.api, merge.into, merge.others);
    return redirect(peopleListPath({ hidden: form.get('hidden') === 'true', merged: merge.into }), {
      headers: await session.headers(),
    });
  } catch (err) {
    throw apiFailure(err);
  }
}

export default function People() {
  const { people, showHidden, selecting, merging, tooFew, merged } = useLoaderData<typeof loader>();
  const error = useActionData<typeof action>()?.error ?? null;
  const navigation = useNavigation();
  const [picked, setPicked] = useState(merging?.length ?? 0);
  useEffect(() => {
    if (!selecting) setPicked(0);
  }, [selecting]);
  // While a merge is on its way, the people merged away are gone already (optimistic).
  const pending = navigation.formData?.get('intent') === 'merge' ? navigation.formData : null;
  const into = pending?.get('into');
  const gone = new Set(pending ? pending.getAll('person').filter((id) => id !== into) : []);
  const shown = people.filter((p) => !gone.has(p.id));

  const tools = (
    <div className="page-tools people-tools">
      <Form method="get">
        {showHidden ? null : <input type="hidden" name="hidden" value="true" />}
        <Switch
          type="submit"
          on={showHidden}
          label="Show hidden"
          title={showHidden ? 'List the people you see' : 'List only the people you hid'}
        />
      </Form>
      {selecting ? (
        <>
          <Form method="get" id="merge-pick" className="people-merge-pick">
            {showHidden ? <input type="hidden" name="hidden" value="true" /> : null}
            <span className="muted" aria-live="polite">
              {picked ? `${picked} selected` : 'Select the people to merge'}
            </span>
            <Button type="submit" variant="primary" size="small">
              Merge
            </Button>
          </Form>
          <Link to={peopleListPath({ hidden: showHidden })} className={buttonClass({ size: 'small' })}>
            Cancel
          </Link>
        </>
      ) : (
        <Link to={peopleListPath({ hidden: showHidden, select: true })} className={buttonClass({ size: 'small' })}>
          Select to merge
        </Link>
      )}
    </div>
  );

  return (
    <ExploreListPage
      title="People"
      icon="person"
      count={shown.length}
      empty={showHidden ? 'You have hidden no one.' : 'Faces show up here once your photos are processed.'}
      emptyTitle={showHidden ? 'No hidden people' : undefined}
      tools={tools}
      before={
        <>
          {showHidden ? (
            <p className="muted">Only the people you hid are listed; open one to show them again.</p>
          ) : null}
          {merged ? (
            <p role="status" className="people-note">
              Merged into <Link to={`/explore/people/${merged.id}`}>{personLabel(merged)}</Link>.
            </p>
          ) : null}
          <FormError>{tooFew ? 'Select two or more people to merge.' : error}</FormError>
          {merging && !pending ? (
            <MergeConfirm
              people={merging}
              hidden={showHidden}
              cancel={peopleListPath({ hidden: showHidden, select: true })}
            />
          ) : null}
        </>
      }
    >
      {shown.map((p) => (
        <PersonCard
          key={p.id}
          person={p}
          select={
            selecting ? (
              <input
                type="checkbox"
                className="person-pick"
                name="merge"
                value={p.id}
                form="merge-pick"
                defaultChecked={merging?.some((m) => m.id === p.id)}
                aria-label={`Select ${personLabel(p)}`}
                onChange={() => setPicked(document.querySelectorAll('.person-pick:checked').length)}
              />
            ) : null
          }
        />
      ))}
    </ExploreListPage>
  );
}

import { json } from '@remix-run/node';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Form, useActionData, useLoaderData, useNavigation, useRevalidator } from '@remix-run/react';
import { useEffect } from 'react';
import { ApiError, ok } from '~/api/client.server';
import type { Job } from '~/api/types';
import { Button } from '~/components/ui/Button';
import { FormError } from '~/components/ui/FormError';
import { apiFailure, requireSession } from '~/lib/auth.server';
import { isUuid } from '~/lib/ids';
import { COMPONENT_LABEL, JOB_COMPONENTS, componentsParam, isActive, jobControls, progressLabel } from '~/lib/jobs';
import '~/styles/jobs.css';

export { RouteErrorBoundary as ErrorBoundary } from '~/components/ErrorPage';
export const meta: MetaFunction = () => [{ title: 'Jobs · Trove' }];

/** How many jobs the history shows. */
const HISTORY = 50;
/** How often the page asks again while a job is running. */
const POLL_MS = 2000;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const session = await requireSession(request, context);
  try {
    const jobs = await ok(session.api.GET('/v1/jobs', { params: { query: { page: 1, limit: HISTORY } } }));
    return json({ jobs }, { headers: await session.headers({ 'Cache-Control': 'no-store' }) });
  } catch (err) {
    throw apiFailure(err);
  }
}

const CONTROL_LABEL = { RUNNING: 'Resume', PAUSED: 'Pause', STOPPED: 'Stop' } as const;

/** POST intent=start (components ticked) or intent=status (id, status RUNNING|PAUSED|STOPPED). */
export async function action({ request, context }: ActionFunctionArgs) {
  // The session first: nobody without one gets their body read.
  const session = await requireSession(request, context);
  const form = await request.formData();
  const intent = form.get('intent');
  const fail = (error: string, status = 400) => json({ error }, { status, headers: { 'Cache-Control': 'no-store' } });
  try {
    if (intent === 'start') {
      const components = componentsParam(form.getAll('component'));
      if (!components) return fail('Tick at least one component.');
      await ok(session.api.POST('/v1/jobs', { body: { components } }));
    } else if (intent === 'status') {
      const id = form.get('id');
      const status = form.get('status');
      if (!isUuid(id) || (status !== 'RUNNING' && status !== 'PAUSED' && status !== 'STOPPED'))
        return fail('Unknown job or status.');
      await ok(session.api.PUT('/v1/jobs/{id}', { params: { path: { id } }, body: { status } }));
    } else {
      return fail('Unknown action.');
    }
    return json({ error: null }, { headers: await session.headers() });
  } catch (err) {
    if (err instanceof ApiError && err.status === 409)
      return fail(
        intent === 'start' ? 'A job with these components is already scheduled or running.' : err.message,
        409,
      );
    throw apiFailure(err);
  }
}

function JobRow({ job }: { job: Job }) {
  const label = job.components.split(',').join(', ');
  return (
    <li className="job" data-testid="job" data-status={job.status}>
      <div className="job-head">
        <span className="job-components">{label}</span>
        <span className={`job-status ${job.status.toLowerCase()}`}>{job.status.toLowerCase()}</span>
      </div>
      <progress
        max={Math.max(job.total, 1)}
        value={job.total > 0 ? job.processed : job.status === 'COMPLETED' ? 1 : 0}
        aria-label={`Progress of ${label}`}
      />
      <div className="job-foot">
        <span className="muted" data-testid="job-progress">
          {progressLabel(job)} · started {job.createdAt.slice(0, 16).replace('T', ' ')} UTC
        </span>
        <span className="job-controls">
          {jobControls(job.status).map((to) => (
            <Form method="post" key={to}>
              <input type="hidden" name="intent" value="status" />
              <input type="hidden" name="id" value={job.id} />
              <input type="hidden" name="status" value={to} />
              <Button type="submit" size="small" variant={to === 'STOPPED' ? 'danger' : undefined}>
                {CONTROL_LABEL[to]}
              </Button>
            </Form>
          ))}
        </span>
      </div>
    </li>
  );
}

export default function Jobs() {
  const { jobs } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const revalidator = useRevalidator();
  const active = jobs.some((j) => isActive(j.status));
  // Progress updates live: ask again while a job is scheduled or running.
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => {
      if (revalidator.state === 'idle' && document.visibilityState === 'visible') revalidator.revalidate();
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [active, revalidator]);
  return (
    <>
      <div className="page-head">
        <h1>Jobs</h1>
        <p className="muted">Run processing again over your whole library, e.g. after a new recognition model.</p>
      </div>
      <Form method="post" className="job-start" aria-labelledby="job-start-title">
        <h2 id="job-start-title">Start a job</h2>
        <input type="hidden" name="intent" value="start" />
        <fieldset>
          <legend>Components</legend>
          {JOB_COMPONENTS.map((c) => (
            <label key={c}>
              <input type="checkbox" name="component" value={c} /> {COMPONENT_LABEL[c]}
            </label>
          ))}
        </fieldset>
        <FormError>{actionData?.error}</FormError>
        <div>
          <Button type="submit" variant="primary" disabled={navigation.state === 'submitting'}>
            Start job
          </Button>
        </div>
      </Form>
      <section aria-labelledby="job-history-title">
        <h2 id="job-history-title">History</h2>
        {jobs.length ? (
          <ul className="job-list">
            {jobs.map((j) => (
              <JobRow key={j.id} job={j} />
            ))}
          </ul>
        ) : (
          <p className="muted">No jobs yet.</p>
        )}
      </section>
    </>
  );
}

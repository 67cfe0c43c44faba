import { json, redirect } from '@remix-run/node';
import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation, useSearchParams } from '@remix-run/react';
import { ok } from '~/api/client.server';
import type { User } from '~/api/types';
import { RouteErrorBoundary } from '~/components/ErrorPage';
import { StandalonePage } from '~/components/StandalonePage';
import { Button, buttonClass } from '~/components/ui/Button';
import { FormError } from '~/components/ui/FormError';
import { TableHead } from '~/components/ui/TableHead';
import { adminApi, adminFailure } from '~/lib/admin.server';
import { isUuid } from '~/lib/ids';
import { NAME_MAX, PASSWORD_MAX, PASSWORD_MIN, QUOTA_MAX_GIB, newUser, quotaGib, userChange } from '~/lib/user-form';
import '~/styles/shell.css';
import '~/styles/admin.css';

export const meta: MetaFunction = () => [{ title: 'Users · Trove administration' }];
/** The 401's `WWW-Authenticate` (and no-store) must reach the browser, also when thrown. */
export const headers: HeadersFunction = ({ errorHeaders, actionHeaders, loaderHeaders }) =>
  errorHeaders ?? actionHeaders ?? loaderHeaders;

/** The most users listed (pages of 100). */
const MAX_PAGES = 50;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const api = adminApi(request, context);
  const users: User[] = [];
  try {
    for (let page = 1; page <= MAX_PAGES; page++) {
      const batch = await ok(api.GET('/v1/users', { params: { query: { page, limit: 100 } } }));
      users.push(...batch);
      if (batch.length < 100) break;
    }
  } catch (err) {
    const failure = adminFailure(err);
    throw 'response' in failure ? failure.response : json({ message: failure.message }, { status: 502 });
  }
  return json({ users }, { headers: { 'Cache-Control': 'no-store' } });
}

type ActionResult = { error: string; intent: string; id: string | null };

export async function action({ request, context }: ActionFunctionArgs) {
  const api = adminApi(request, context);
  const form = await request.formData();
  const intent = String(form.get('intent') ?? '');
  const idField = form.get('id');
  const id = isUuid(idField) ? idField : null;
  const fail = (error: string) =>
    json<ActionResult>({ error, intent, id }, { status: 400, headers: { 'Cache-Control': 'no-store' } });
  try {
    if (intent === 'create') {
      const parsed = newUser(form);
      if ('error' in parsed) return fail(parsed.error);
      await ok(api.POST('/v1/users', { body: parsed.user }));
      return redirect(`/admin/users?done=created`);
    }
    if (!id) return fail('No such user.');
    if (intent === 'update') {
      const parsed = userChange(form);
      if ('error' in parsed) return fail(parsed.error);
      await ok(api.PUT('/v1/users/{id}', { params: { path: { id } }, body: parsed.change }));
      return redirect(`/admin/users?done=updated`);
    }
    if (intent === 'delete') {
      await ok(api.DELETE('/v1/users/{id}', { params: { path: { id } } }));
      return redirect(`/admin/users?done=deleted`);
    }
    return fail('Unknown action.');
  } catch (err) {
    const failure = adminFailure(err);
    if ('response' in failure) throw failure.response;
    return fail(failure.message);
  }
}

const DONE: Record<string, string> = { created: 'User created.', updated: 'User saved.', deleted: 'User deleted.' };

function UserForm({ user, error }: { user: User | null; error: string | null }) {
  const busy = useNavigation().state === 'submitting';
  return (
    <Form method="post" className="panel user-form" aria-labelledby="user-form-title">
      <h2 id="user-form-title">{user ? `Edit ${user.username}` : 'New user'}</h2>
      <input type="hidden" name="intent" value={user ? 'update' : 'create'} />
      {user ? <input type="hidden" name="id" value={user.id} /> : null}
      <label>
        Name
        <input name="name" required maxLength={NAME_MAX} defaultValue={user?.name} autoComplete="off" />
      </label>
      <label>
        Username
        <input
          name="username"
          required
          pattern="[a-zA-Z0-9_.\-]{3,32}"
          defaultValue={user?.username}
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
        />
      </label>
      <label>
        {user ? 'New password (leave empty to keep it)' : 'Password'}
        <input
          name="password"
          type="password"
          required={!user}
          minLength={PASSWORD_MIN}
          maxLength={PASSWORD_MAX}
          autoComplete="new-password"
        />
      </label>
      <label>
        Storage quota (GiB)
        <input
          name="quotaGib"
          type="number"
          min={0}
          max={QUOTA_MAX_GIB}
          step="any"
          inputMode="decimal"
          defaultValue={quotaGib(user?.quotaBytes)}
          placeholder={user ? 'Unlimited' : 'Server default'}
          aria-describedby="quota-hint"
          autoComplete="off"
        />
      </label>
      <p id="quota-hint" className="muted">
        {user
          ? 'Empty: unlimited. A lower quota only stops new uploads; nothing stored is removed.'
          : 'Empty: the server’s default quota (unlimited unless TROVE_DEFAULT_QUOTA_BYTES is set).'}
      </p>
      <FormError>{error}</FormError>
      <div className="form-actions">
        <Link to="/admin/users" className={buttonClass()}>
          Cancel
        </Link>
        <Button type="submit" variant="primary" disabled={busy}>
          {user ? 'Save' : 'Create user'}
        </Button>
      </div>
    </Form>
  );
}

function DeleteConfirm({ user, error }: { user: User; error: string | null }) {
  return (
    <Form
      method="post"
      className="panel user-form"
      role="alertdialog"
      aria-labelledby="delete-title"
      aria-describedby="delete-text"
    >
      <h2 id="delete-title">Delete {user.username}?</h2>
      <p id="delete-text">{user.name} will no longer be able to log in. This cannot be undone.</p>
      <input type="hidden" name="intent" value="delete" />
      <input type="hidden" name="id" value={user.id} />
      <FormError>{error}</FormError>
      <div className="form-actions">
        <Link to="/admin/users" className={buttonClass()}>
          Cancel
        </Link>
        <Button type="submit" variant="danger">
          Delete user
        </Button>
      </div>
    </Form>
  );
}

export default function AdminUsers() {
  const { users } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [params] = useSearchParams();
  const editing = users.find((u) => u.id === params.get('edit')) ?? null;
  const deleting = users.find((u) => u.id === params.get('delete')) ?? null;
  const creating = params.has('new') || (actionData?.intent === 'create' && !!actionData.error);
  const error = actionData?.error ?? null;
  const done = DONE[params.get('done') ?? ''];
  return (
    <StandalonePage kind="admin">
      <div className="page-head row">
        <div>
          <p className="crumb">Administration</p>
          <h1>Users</h1>
        </div>
        <Link to="/admin/users?new" className={buttonClass({ variant: 'primary' })}>
          New user
        </Link>
      </div>
      {done ? (
        <p role="status" className="admin-done">
          {done}
        </p>
      ) : null}
      {creating ? <UserForm key="new" user={null} error={error} /> : null}
      {editing ? <UserForm key={editing.id} user={editing} error={error} /> : null}
      {deleting ? <DeleteConfirm user={deleting} error={error} /> : null}
      <table className="user-table" data-testid="users">
        <TableHead columns={['Name', 'Username', 'Quota', { label: 'Created', className: 'hide-small' }]} />
        <tbody>
          {users.map((u) => (
            <tr key={u.id}>
              <td>{u.name}</td>
              <td>{u.username}</td>
              <td>
                {u.quotaBytes === null || u.quotaBytes === undefined ? 'Unlimited' : `${quotaGib(u.quotaBytes)} GiB`}
              </td>
              <td className="hide-small">{u.createdAt.slice(0, 10)}</td>
              <td className="user-actions">
                <Link to={`/admin/users?edit=${u.id}`} aria-label={`Edit ${u.username}`}>
                  Edit
                </Link>
                <Link to={`/admin/users?delete=${u.id}`} aria-label={`Delete ${u.username}`}>
                  Delete
                </Link>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {users.length === 0 ? <p className="muted">No users yet. Create the first one.</p> : null}
    </StandalonePage>
  );
}

export function ErrorBoundary() {
  return (
    <div className="admin-page">
      <RouteErrorBoundary />
    </div>
  );
}

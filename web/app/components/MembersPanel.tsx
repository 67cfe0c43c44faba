import { Form } from '@remix-run/react';
import { useId } from 'react';
import { Button } from './ui/Button';

export type Member = { userId: string; name: string; username: string; role: 'viewer' | 'contributor' };

/**
 * The album's members for its owner: add a user of this server by user name as viewer or
 * contributor (adding again changes the role), remove one. Posts to the album page's action.
 */
export function MembersPanel({ members, error }: { members: Member[]; error?: string | null }) {
  const nameId = useId();
  const roleId = useId();
  return (
    <section className="members-panel" aria-labelledby={`${nameId}-title`}>
      <h2 id={`${nameId}-title`}>Members</h2>
      {members.length === 0 ? (
        <p className="muted">Only you. Share this album with someone in your household.</p>
      ) : null}
      <ul className="members-list" aria-label="Members">
        {members.map((m) => (
          <li key={m.userId}>
            <span>
              {m.name} <span className="muted">@{m.username}</span>{' '}
              <span className={`role-badge role-${m.role}`}>{m.role}</span>
            </span>
            <Form method="post">
              <input type="hidden" name="intent" value="remove-member" />
              <input type="hidden" name="userId" value={m.userId} />
              <Button type="submit" size="small" aria-label={`Remove ${m.name}`}>
                Remove
              </Button>
            </Form>
          </li>
        ))}
      </ul>
      <Form method="post" className="member-add">
        <input type="hidden" name="intent" value="add-member" />
        <label htmlFor={nameId}>User name</label>
        <input id={nameId} name="username" required maxLength={200} autoComplete="off" />
        <label htmlFor={roleId}>Role</label>
        <select id={roleId} name="role" defaultValue="viewer">
          <option value="viewer">Viewer</option>
          <option value="contributor">Contributor</option>
        </select>
        <Button type="submit" size="small">
          Add member
        </Button>
        {error ? (
          <p className="form-error" role="alert">
            {error}
          </p>
        ) : null}
      </Form>
    </section>
  );
}

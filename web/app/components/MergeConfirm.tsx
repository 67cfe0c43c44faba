import { Form, Link } from '@remix-run/react';
import { useEffect, useRef } from 'react';
import type { Person } from '~/api/types';
import { personLabel } from '~/lib/person-form';
import { Button, buttonClass } from './ui/Button';

/**
 * Asks before merging people, which cannot be undone: which one stays (their name and their page;
 * a named one is offered first), then "Merge". Focus moves here when it appears.
 */
export function MergeConfirm({
  people,
  hidden,
  cancel,
}: {
  people: Pick<Person, 'id' | 'name' | 'mediaItemsCount'>[];
  hidden: boolean;
  cancel: string;
}) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => ref.current?.focus(), []);
  const keep = people.find((p) => p.name) ?? people[0]!;
  return (
    <Form
      method="post"
      className="panel merge-confirm"
      role="alertdialog"
      aria-labelledby="merge-title"
      aria-describedby="merge-text"
    >
      <h2 id="merge-title" ref={ref} tabIndex={-1}>
        Merge {people.length} people?
      </h2>
      <p id="merge-text">Their photos will all show under one person. This cannot be undone.</p>
      <input type="hidden" name="intent" value="merge" />
      {hidden ? <input type="hidden" name="hidden" value="true" /> : null}
      {people.map((p) => (
        <input key={p.id} type="hidden" name="person" value={p.id} />
      ))}
      <fieldset>
        <legend>Keep the name and page of</legend>
        {people.map((p) => (
          <label key={p.id}>
            <input type="radio" name="into" value={p.id} defaultChecked={p.id === keep.id} /> {personLabel(p)}
          </label>
        ))}
      </fieldset>
      <div className="form-actions">
        <Link to={cancel} className={buttonClass()}>
          Cancel
        </Link>
        <Button type="submit" variant="danger">
          Merge people
        </Button>
      </div>
    </Form>
  );
}

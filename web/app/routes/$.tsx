import { json } from '@remix-run/node';
import type { MetaFunction } from '@remix-run/node';

export const meta: MetaFunction = () => [{ title: 'Not found · Trove' }];

/** Any path no other route matches: the not-found page (root ErrorBoundary). */
export function loader() {
  throw json({ message: 'Not found' }, { status: 404 });
}

export default function NotFound() {
  return null;
}

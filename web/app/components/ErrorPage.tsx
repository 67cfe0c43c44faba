import { Link, isRouteErrorResponse, useRouteError } from '@remix-run/react';
import { Button, buttonClass } from './ui/Button';
import './ErrorPage.css';

/** What went wrong, in words, from an error a loader threw (Response) or a crash (Error). */
export function describeError(error: unknown): { status: number; title: string; message: string } {
  if (isRouteErrorResponse(error)) {
    const data: unknown = error.data;
    const detail =
      data && typeof data === 'object' && 'message' in data && typeof data.message === 'string'
        ? data.message
        : typeof data === 'string' && data
          ? data
          : '';
    if (error.status === 404)
      return {
        status: 404,
        title: 'Page not found',
        message: 'There is nothing here. The link may be wrong, or what it pointed to was deleted.',
      };
    if (error.status === 503)
      return {
        status: 503,
        title: 'Trove is unreachable',
        message: detail || 'The Trove server cannot be reached right now.',
      };
    return {
      status: error.status,
      title: 'Something went wrong',
      message: detail || error.statusText || `The server answered ${error.status}.`,
    };
  }
  return {
    status: 500,
    title: 'Something went wrong',
    message: error instanceof Error && error.message ? error.message : 'An unexpected error happened.',
  };
}

/** The not-found and error page: says what happened, offers to retry (errors) or go home. */
export function ErrorPage({ error }: { error: unknown }) {
  const { status, title, message } = describeError(error);
  return (
    <main className="error-page" aria-labelledby="error-title">
      <p className="error-code" aria-hidden="true">
        {status}
      </p>
      <h1 id="error-title">{title}</h1>
      <p>{message}</p>
      <div className="error-actions">
        {status !== 404 ? (
          <Button variant="primary" onClick={() => window.location.reload()}>
            Try again
          </Button>
        ) : null}
        <Link to="/" className={buttonClass()}>
          Go to your photos
        </Link>
      </div>
    </main>
  );
}

/** A route's ErrorBoundary (`export { RouteErrorBoundary as ErrorBoundary }`): the error page, inside the layouts above it. */
export function RouteErrorBoundary() {
  return <ErrorPage error={useRouteError()} />;
}

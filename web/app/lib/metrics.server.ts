/**
 * The web server's Prometheus metrics (served on TROVE_METRICS_PORT by server.mjs, like every
 * service's): the kit's registry and HTTP histogram, with a route label of few values, so page
 * paths holding ids never turn into one series each.
 */
export { httpRequestDuration, secondsSince, startMetricsServer } from '@trove/kit/metrics';

/** The `route` label of a request to the web server: what kind of request it was, not its path. */
export function routeLabel(path: string): string {
  if (path.startsWith('/assets/')) return '/assets';
  if (path === '/healthz') return '/healthz';
  if (path.startsWith('/v1/')) return '/v1 (content)';
  const api = /^\/api\/([a-z-]+)/.exec(path);
  if (api) return `/api/${api[1]}`;
  if (path.startsWith('/share/')) return '/share';
  if (path === '/login' || path === '/logout' || path === '/setup') return path;
  return 'page';
}

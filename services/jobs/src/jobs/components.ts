import { COMPONENT_ALIASES, JOB_COMPONENTS, WORKER_COMPONENTS } from '@trove/proto-events';
import type { JobComponent, WorkerComponent } from '@trove/proto-events';
import { badRequest } from '@trove/kit';

/** What a job runs: the worker components for each item, and whether it rebuilds the search index. */
export interface JobPlan {
  work: WorkerComponent[];
  search: boolean;
}

/**
 * `components` as the user typed it ("places,classification"): comma-separated names or aliases.
 * 400 for an empty list or an unknown name. The worker components are then cut to what the owner's
 * features permit (`allowed`): a job cannot compute what the owner has switched off.
 */
export function planOf(components: string, allowed: readonly string[]): JobPlan {
  const names = components.split(',').map((n) => n.trim().toLowerCase());
  if (names.length === 0 || names.some((n) => n === ''))
    throw badRequest('components must be a comma-separated list of component names');
  const canonical = new Set<JobComponent>();
  for (const name of names) {
    const component =
      COMPONENT_ALIASES[name] ??
      ((JOB_COMPONENTS as readonly string[]).includes(name) ? (name as JobComponent) : undefined);
    if (!component)
      throw badRequest(
        `unknown component "${name}" (known: ${[...JOB_COMPONENTS, ...Object.keys(COMPONENT_ALIASES)].join(', ')})`,
      );
    canonical.add(component);
  }
  return {
    work: WORKER_COMPONENTS.filter((c) => canonical.has(c) && allowed.includes(c)),
    search: canonical.has('search'),
  };
}

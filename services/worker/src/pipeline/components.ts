/**
 * Which components a work item asks for. Uploads ask for the owner's permitted set, jobs for theirs;
 * a work item without a list (queued before lists existed) runs everything this worker has. A name
 * this worker does not know (a component a newer worker has) is skipped and logged, not an error.
 */
import type { Logger } from '@trove/kit';
import { WORKER_COMPONENTS } from '@trove/proto-events';
import type { ProcessMediaItemV1 } from '@trove/proto-events';

/** The components this worker runs: the contract's list (proto-events), the one place a new component is named. */
export const WORKER_KNOWS: ReadonlySet<string> = new Set(WORKER_COMPONENTS);

/** Components that look at the picture (the photo, or a video's poster frame) the previews are made of. */
const NEEDS_PICTURE = ['previews', 'things', 'faces', 'ocr'];

export interface Selection {
  /** Whether the item asks for this component (always true without a list). */
  runs(name: string): boolean;
  /** Whether the picture must be decoded: a component looks at it. */
  readonly needsPicture: boolean;
  /** The names a partial result carries (undefined: a full result). */
  readonly carried: string[] | undefined;
}

export function selectComponents(item: ProcessMediaItemV1, log: Logger): Selection {
  const asked = item.components;
  if (!asked) return { runs: () => true, needsPicture: true, carried: undefined };
  const unknown = asked.filter((name) => !WORKER_KNOWS.has(name));
  if (unknown.length > 0)
    log.info({ mediaItemId: item.mediaItemId, unknown }, 'components this worker does not have are skipped');
  const runs = (name: string) => asked.includes(name);
  return { runs, needsPicture: NEEDS_PICTURE.some(runs), carried: asked.filter((name) => WORKER_KNOWS.has(name)) };
}

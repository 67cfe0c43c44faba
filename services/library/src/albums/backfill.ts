import type { Logger } from '@trove/kit';
import type { AlbumsService } from './service';

/**
 * Memberships from before the mirrored hidden flag are left out of shared views until they have it:
 * filled in from the media service in the background, tried again every 10 s while that fails.
 */
export function backfillHidden(albums: AlbumsService, log: Logger): void {
  const run = () => {
    albums.backfillHidden().then(
      (filled) => {
        if (filled > 0) log.info({ filled }, 'hidden flag of album memberships filled in');
      },
      (err: unknown) => {
        log.warn({ err }, 'filling in the hidden flag of album memberships failed: trying again in 10 s');
        setTimeout(run, 10_000).unref();
      },
    );
  };
  run();
}

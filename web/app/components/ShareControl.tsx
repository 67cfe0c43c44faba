import { useFetcher } from '@remix-run/react';
import { useId, useRef } from 'react';
import { useCopy } from '~/hooks/useCopy';
import { Button } from './ui/Button';
import { Icon } from './ui/Icon';
import { Switch } from './ui/Switch';
import './ShareControl.css';

/** A switch's state: what is being posted while the post is under way, else what the server said. */
function pendingOr(fetcher: ReturnType<typeof useFetcher>, field: string, current: boolean): boolean {
  const pending = fetcher.formData?.get(field);
  return pending !== undefined && pending !== null ? pending === 'true' : current;
}

/**
 * Sharing an album by link: the switch (posts `intent=share` to the album's route), and while on,
 * the link to copy and whether visitors see where the photos were taken (`intent=share-location`).
 */
export function ShareControl({ shared, shareLocation, url }: { shared: boolean; shareLocation: boolean; url: string }) {
  const fetcher = useFetcher();
  const locationFetcher = useFetcher();
  const on = pendingOr(fetcher, 'shared', shared);
  const locationOn = pendingOr(locationFetcher, 'shareLocation', shareLocation);
  const linkRef = useRef<HTMLInputElement>(null);
  const { copied, copy } = useCopy(linkRef, url);
  const linkId = useId();
  return (
    <div className="share">
      <fetcher.Form method="post" className="share-toggle">
        <input type="hidden" name="intent" value="share" />
        <input type="hidden" name="shared" value={on ? 'false' : 'true'} />
        <Switch type="submit" on={on} label="Share by link" disabled={fetcher.state !== 'idle'} />
      </fetcher.Form>
      {on ? (
        <div className="share-link">
          <label htmlFor={linkId} className="visually-hidden">
            Public link
          </label>
          <input id={linkId} ref={linkRef} readOnly value={url} onFocus={(e) => e.currentTarget.select()} />
          <Button size="small" onClick={() => void copy()}>
            <Icon name="copy" size={18} /> {copied ? 'Copied' : 'Copy link'}
          </Button>
          <span className="muted share-hint">
            Anyone with the link can see this album’s photos and videos, without logging in. Hidden items are left out.
          </span>
          <locationFetcher.Form method="post" className="share-toggle">
            <input type="hidden" name="intent" value="share-location" />
            <input type="hidden" name="shareLocation" value={locationOn ? 'false' : 'true'} />
            <Switch
              type="submit"
              on={locationOn}
              label="Show where photos were taken"
              disabled={locationFetcher.state !== 'idle'}
            />
          </locationFetcher.Form>
          <span className="muted share-hint">
            Off: visitors get no GPS positions from the app. Original files keep what the camera wrote into them.
          </span>
        </div>
      ) : null}
    </div>
  );
}

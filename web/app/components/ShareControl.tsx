import { useFetcher } from '@remix-run/react';
import { useId, useRef } from 'react';
import { useCopy } from '~/hooks/useCopy';
import { Button } from './ui/Button';
import { Icon } from './ui/Icon';
import { ShareLinkSettings } from './ShareLinkSettings';
import { Switch } from './ui/Switch';
import './ShareControl.css';

/** A switch's state: what is being posted while the post is under way, else what the server said. */
function pendingOr(fetcher: ReturnType<typeof useFetcher>, field: string, current: boolean): boolean {
  const pending = fetcher.formData?.get(field);
  return pending !== undefined && pending !== null ? pending === 'true' : current;
}

/**
 * Sharing an album by link: the switch (posts `intent=share` to the album's route), and while on,
 * the link to copy, whether visitors see where the photos were taken (`intent=share-location`), may
 * download (`intent=share-download`), and the link's expiry and password (ShareLinkSettings).
 */
export function ShareControl({
  shared,
  shareLocation,
  allowDownload,
  expiresAt,
  passwordSet,
  url,
}: {
  shared: boolean;
  shareLocation: boolean;
  allowDownload: boolean;
  expiresAt: string | null;
  passwordSet: boolean;
  url: string;
}) {
  const fetcher = useFetcher();
  const on = pendingOr(fetcher, 'shared', shared);
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
          <SettingSwitch
            intent="share-location"
            field="shareLocation"
            current={shareLocation}
            label="Show where photos were taken"
          />
          <span className="muted share-hint">
            Off: visitors get no GPS positions from the app. Original files keep what the camera wrote into them.
          </span>
          <SettingSwitch
            intent="share-download"
            field="shareAllowDownload"
            current={allowDownload}
            label="Allow downloads"
          />
          <span className="muted share-hint">
            Visitors may download the originals and the whole album as a ZIP (only while locations are shown too, since
            originals keep them).
          </span>
          <ShareLinkSettings expiresAt={expiresAt} passwordSet={passwordSet} />
        </div>
      ) : null}
    </div>
  );
}

/** One of the link's on/off settings: posts `intent` with `field` set to the other state. */
function SettingSwitch({
  intent,
  field,
  current,
  label,
}: {
  intent: string;
  field: string;
  current: boolean;
  label: string;
}) {
  const fetcher = useFetcher();
  const on = pendingOr(fetcher, field, current);
  return (
    <fetcher.Form method="post" className="share-toggle">
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name={field} value={on ? 'false' : 'true'} />
      <Switch type="submit" on={on} label={label} disabled={fetcher.state !== 'idle'} />
    </fetcher.Form>
  );
}

import { useFetcher } from '@remix-run/react';
import { useId, useRef, useState } from 'react';
import { Button } from './ui/Button';
import { Icon } from './ui/Icon';
import { Switch } from './ui/Switch';
import './ShareControl.css';

/** Sharing an album by link: the switch (posts `intent=share` to the album's route), and the link to copy while on. */
export function ShareControl({ shared, url }: { shared: boolean; url: string }) {
  const fetcher = useFetcher();
  const pending = fetcher.formData?.get('shared');
  const on = pending !== undefined && pending !== null ? pending === 'true' : shared;
  const [copied, setCopied] = useState(false);
  const linkRef = useRef<HTMLInputElement>(null);
  const linkId = useId();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
    } catch {
      // No clipboard permission (or http on another host): select the text for Ctrl+C.
      linkRef.current?.select();
      document.execCommand?.('copy');
    }
    setCopied(true);
    setTimeout(() => setCopied(false), 2500);
  };
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
          <span className="muted share-hint">Anyone with the link can see this album’s photos and videos, without logging in. Hidden items are left out.</span>
        </div>
      ) : null}
    </div>
  );
}

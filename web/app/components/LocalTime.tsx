import { useEffect, useState } from 'react';
import { formatDateTime } from '~/lib/format';

/**
 * An instant in the browser's own time zone. The server does not know that zone: it renders UTC
 * (saying so), and the browser puts its local time in once hydrated.
 */
export function LocalTime({ iso }: { iso: string }) {
  const [text, setText] = useState(() => `${formatDateTime(iso, 'UTC')} UTC`);
  useEffect(() => setText(formatDateTime(iso)), [iso]);
  return <time dateTime={iso}>{text}</time>;
}

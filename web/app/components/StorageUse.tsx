import { formatBytes } from '~/lib/format';

/** The user's own storage: a bar against the quota (none without one), and what to do when it is full. */
export function StorageUse({ storage }: { storage: { usageBytes: number; quotaBytes: number | null } | null }) {
  if (!storage) return <p className="muted">The server cannot tell your storage use right now.</p>;
  const { usageBytes, quotaBytes } = storage;
  if (quotaBytes === null) {
    return (
      <dl className="facts" data-testid="storage">
        <dt>Used</dt>
        <dd>{formatBytes(usageBytes)}</dd>
        <dt>Quota</dt>
        <dd>No limit</dd>
      </dl>
    );
  }
  const full = usageBytes >= quotaBytes;
  const percent = quotaBytes > 0 ? Math.min(100, Math.round((usageBytes / quotaBytes) * 100)) : 100;
  return (
    <>
      <progress
        max={Math.max(quotaBytes, 1)}
        value={Math.min(usageBytes, quotaBytes)}
        aria-label="Storage used of your quota"
      />
      <dl className="facts" data-testid="storage">
        <dt>Used</dt>
        <dd>
          {formatBytes(usageBytes)} of {formatBytes(quotaBytes)} ({percent}%)
        </dd>
        <dt>Free</dt>
        <dd>{formatBytes(Math.max(0, quotaBytes - usageBytes))}</dd>
      </dl>
      {full ? (
        <p role="status" className="storage-full">
          Your storage is full: new uploads are refused. Items in the trash count until they are deleted for good; empty
          the trash or ask the administrator for a larger quota.
        </p>
      ) : null}
    </>
  );
}

// TEMPORARY STUB (not committed): stands in for the timeline helper's module to test the call path.
export async function measureTimeline({ webUrl, username, password, month, years = 10 }) {
  const res = await fetch(`${webUrl}/login`);
  if (res.status !== 200) throw new Error(`web app /login: ${res.status}`);
  return {
    firstPaintMs: 100,
    monthJumpMs: 50,
    heapMiB: 42,
    details: { stub: true, username, month, years, hasPassword: Boolean(password) },
  };
}

/** @jest-environment jsdom */
import { render, screen } from '@testing-library/react';
import { StorageUse } from './StorageUse';

describe('StorageUse (settings)', () => {
  it('under a quota: a bar of the use against the quota, the figures, and no warning while there is room', () => {
    render(<StorageUse storage={{ usageBytes: 25 * 1024 ** 2, quotaBytes: 100 * 1024 ** 2 }} />);
    const bar = screen.getByRole('progressbar', { name: 'Storage used of your quota' });
    expect(bar.getAttribute('max')).toBe(String(100 * 1024 ** 2));
    expect(bar.getAttribute('value')).toBe(String(25 * 1024 ** 2));
    expect(screen.getByTestId('storage').textContent).toBe('Used25 MB of 100 MB (25%)Free75 MB');
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('full (or over, after the administrator lowered the quota): the bar is full and says what to do', () => {
    render(<StorageUse storage={{ usageBytes: 120_000, quotaBytes: 100_000 }} />);
    expect(screen.getByRole('progressbar').getAttribute('value')).toBe('100000');
    expect(screen.getByTestId('storage').textContent).toContain('(100%)');
    expect(screen.getByRole('status').textContent).toMatch(/storage is full.*empty the trash/s);
  });

  it('without a quota: the use and "No limit", no bar; without an answer: says so', () => {
    const { unmount } = render(<StorageUse storage={{ usageBytes: 2048, quotaBytes: null }} />);
    expect(screen.getByTestId('storage').textContent).toBe('Used2 KBQuotaNo limit');
    expect(screen.queryByRole('progressbar')).toBeNull();
    unmount();
    render(<StorageUse storage={null} />);
    expect(screen.getByText(/cannot tell your storage use/)).toBeTruthy();
  });
});

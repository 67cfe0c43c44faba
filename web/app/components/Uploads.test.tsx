/** @jest-environment jsdom */
import type { ReactNode } from 'react';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { UploadQueue } from '~/lib/upload-queue';
import type { SendResult, Sender } from '~/lib/upload-queue';
import { UploadPanel } from './Uploads';

function manual() {
  const calls: { progress(n: number): void; finish(r: SendResult): void }[] = [];
  const send: Sender = (_f, onProgress) =>
    new Promise((resolve) => calls.push({ progress: onProgress, finish: resolve }));
  return { send, calls };
}

// The panel's links are Remix links; a plain anchor is enough here (no router in a unit test).
jest.mock('@remix-run/react', () => ({
  Link: ({ to, children, className }: { to: string; children: ReactNode; className?: string }) => (
    <a href={to} className={className}>
      {children}
    </a>
  ),
}));

function renderPanel(queue: UploadQueue) {
  return render(<UploadPanel queue={queue} />);
}

const file = (name: string, size: number) => new File([new Uint8Array(size)], name);

describe('UploadPanel', () => {
  it('shows a progress bar per file and one overall, and how each upload ended', async () => {
    const { send, calls } = manual();
    const queue = new UploadQueue(send, 3);
    renderPanel(queue);
    act(() => queue.add([file('a.jpg', 100), file('b.png', 100), file('c.mp4', 200)]));
    await screen.findByRole('region', { name: 'Uploads' });
    expect(screen.getAllByRole('progressbar', { name: /^Upload of / })).toHaveLength(3);
    act(() => calls[2].progress(100));
    const bar = screen.getByRole('progressbar', { name: 'Upload of c.mp4' }) as HTMLProgressElement;
    expect([bar.value, bar.max]).toEqual([100, 200]);
    expect((screen.getByRole('progressbar', { name: 'All uploads' }) as HTMLProgressElement).value).toBe(25);
    expect(screen.getByRole('heading').textContent).toBe('Uploading 3 items · 25%');

    await act(async () => {
      calls[0].finish({ kind: 'created', id: 'new-id' });
      calls[1].finish({ kind: 'duplicate', id: '3f1e7c2a-9b4d-4e8f-a1c2-5d6e7f8a9b0c' });
      calls[2].finish({ kind: 'failed', message: 'Server unreachable, try again' });
    });
    expect(screen.getByText('Uploaded')).toBeTruthy();
    expect(screen.getByText('Already in your library')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Show it' }).getAttribute('href')).toBe(
      '/?item=3f1e7c2a-9b4d-4e8f-a1c2-5d6e7f8a9b0c',
    );
    expect(screen.getByText('Server unreachable, try again')).toBeTruthy();
    expect(screen.getByRole('heading').textContent).toBe('1 upload failed');

    fireEvent.click(screen.getByRole('button', { name: 'Retry upload of c.mp4' }));
    expect(calls).toHaveLength(4);
    await act(async () => calls[3].finish({ kind: 'created', id: 'later' }));
    expect(screen.getByRole('heading').textContent).toBe('3 items uploaded');
    fireEvent.click(screen.getByRole('button', { name: 'Close uploads' }));
    expect(screen.queryByRole('region', { name: 'Uploads' })).toBeNull();
  });
});

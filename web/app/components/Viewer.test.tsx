/** @jest-environment jsdom */
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { makeItem } from '../../test/fixtures';
import type { MediaItem } from '~/api/types';
import { fromLocalInput } from '~/lib/date-place';
import type { DatePlaceChange } from '~/lib/date-place';
import { SLIDE_MS, Viewer } from './Viewer';
import type { ViewerActions } from './Viewer';

const prev = makeItem({ filename: 'prev.jpg' });
const item = makeItem({
  filename: 'here.jpg',
  cameraMake: 'Google',
  cameraModel: 'Pixel 8',
  apertureFNumber: '1.8',
  exposureTime: '0.01',
  width: 4032,
  height: 3024,
  latitude: 52.37,
  longitude: 4.89,
});
const next = makeItem({ filename: 'next.jpg' });

function actions(): jest.Mocked<ViewerActions> {
  return {
    favourite: jest.fn(),
    hide: jest.fn(),
    trash: jest.fn(),
    restore: jest.fn(),
    describe: jest.fn((_item: MediaItem, _d: string | null) => Promise.resolve()),
    addToAlbum: jest.fn(),
    edit: jest.fn((_item: MediaItem, _c: DatePlaceChange) => Promise.resolve()),
  };
}

function dialog() {
  return screen.getByRole('dialog', { name: /here\.jpg/ });
}

describe('Viewer', () => {
  it('is a labelled dialog showing the preview, and steps with ← and →', () => {
    const onNavigate = jest.fn();
    render(
      <Viewer item={item} prev={prev} next={next} onNavigate={onNavigate} onClose={jest.fn()} actions={actions()} />,
    );
    expect(dialog().getAttribute('aria-label')).toBe('Photo: here.jpg');
    expect(screen.getByRole('img', { name: /here\.jpg/ }).getAttribute('src')).toBe(item.previewUrl);
    fireEvent.keyDown(dialog(), { key: 'ArrowRight' });
    expect(onNavigate).toHaveBeenLastCalledWith(next.id);
    fireEvent.keyDown(dialog(), { key: 'ArrowLeft' });
    expect(onNavigate).toHaveBeenLastCalledWith(prev.id);
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(onNavigate).toHaveBeenCalledTimes(3);
  });

  it('plays a slideshow: the next item after a while, to the end of the list; S or the button stops it', () => {
    jest.useFakeTimers();
    try {
      const onNavigate = jest.fn();
      const view = (at: MediaItem, after: MediaItem | null) => (
        <Viewer item={at} prev={prev} next={after} onNavigate={onNavigate} onClose={jest.fn()} actions={actions()} />
      );
      const { rerender } = render(view(item, next));
      const button = screen.getByRole('button', { name: 'Slideshow' });
      fireEvent.click(button);
      expect(button.getAttribute('aria-pressed')).toBe('true');
      act(() => jest.advanceTimersByTime(SLIDE_MS - 1));
      expect(onNavigate).not.toHaveBeenCalled();
      act(() => jest.advanceTimersByTime(1));
      expect(onNavigate).toHaveBeenLastCalledWith(next.id);
      // At the last item it stops once that has been shown.
      rerender(view(next, null));
      act(() => jest.advanceTimersByTime(SLIDE_MS));
      expect(onNavigate).toHaveBeenCalledTimes(1);
      expect(screen.getByRole('button', { name: 'Slideshow' }).getAttribute('aria-pressed')).toBe('false');
      // S starts and stops it.
      rerender(view(item, next));
      fireEvent.keyDown(screen.getByRole('dialog'), { key: 's' });
      fireEvent.keyDown(screen.getByRole('dialog'), { key: 'S' });
      act(() => jest.advanceTimersByTime(SLIDE_MS * 2));
      expect(onNavigate).toHaveBeenCalledTimes(1);
    } finally {
      jest.useRealTimers();
    }
  });

  it('a Live Photo plays its motion part while hovered, while held down, or with its Live button, and shows the still again', () => {
    // jsdom has no PointerEvent: without one, events lose their pointerType.
    class TestPointerEvent extends MouseEvent {
      readonly pointerType: string;
      constructor(type: string, init: PointerEventInit = {}) {
        super(type, init);
        this.pointerType = init.pointerType ?? '';
      }
    }
    const hadPointerEvent = 'PointerEvent' in window;
    if (!hadPointerEvent) Object.assign(window, { PointerEvent: TestPointerEvent });
    const play = jest.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined);
    const pause = jest.spyOn(HTMLMediaElement.prototype, 'pause').mockReturnValue(undefined);
    try {
      const motionUrl = '/v1/mediaItems/00000000-0000-4000-8000-000000000999/preview?exp=1&sig=s';
      const live = makeItem({
        filename: 'here.jpg',
        mediaItemCategory: 'live',
        motionMediaItemId: '00000000-0000-4000-8000-000000000999',
        motionUrl,
      });
      const { container } = render(
        <Viewer item={live} prev={null} next={null} onNavigate={jest.fn()} onClose={jest.fn()} actions={actions()} />,
      );
      expect(screen.getByRole('img', { name: /here\.jpg/ }).getAttribute('src')).toBe(live.previewUrl);
      const motion = container.querySelector('video.live-photo-motion')!;
      expect(motion.getAttribute('src')).toBe(motionUrl);
      const photo = container.querySelector('.live-photo')!;
      const playing = () => photo.hasAttribute('data-playing');

      fireEvent.pointerEnter(photo, { pointerType: 'mouse' });
      expect(playing()).toBe(true);
      expect(play).toHaveBeenCalledTimes(1);
      fireEvent.pointerLeave(photo, { pointerType: 'mouse' });
      expect(playing()).toBe(false);
      // A touch that rests does nothing until pressed; letting go shows the still.
      fireEvent.pointerEnter(photo, { pointerType: 'touch' });
      expect(playing()).toBe(false);
      fireEvent.pointerDown(photo, { pointerType: 'touch' });
      expect(playing()).toBe(true);
      fireEvent.pointerUp(photo, { pointerType: 'touch' });
      expect(playing()).toBe(false);
      const button = screen.getByRole('button', { name: 'Live' });
      fireEvent.click(button);
      expect(button.getAttribute('aria-pressed')).toBe('true');
      fireEvent(motion, new Event('ended'));
      expect(playing()).toBe(false);
      expect(pause).toHaveBeenCalled();
    } finally {
      play.mockRestore();
      pause.mockRestore();
      if (!hadPointerEvent) delete (window as { PointerEvent?: unknown }).PointerEvent;
    }
  });

  it('an ordinary photo has no motion part to play', () => {
    const { container } = render(
      <Viewer item={item} prev={null} next={null} onNavigate={jest.fn()} onClose={jest.fn()} actions={actions()} />,
    );
    expect(container.querySelector('.live-photo, video')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Live' })).toBeNull();
  });

  it('closes once on Esc (the dialog’s cancel, refused or not) and with its button', () => {
    const onClose = jest.fn();
    const { unmount } = render(
      <Viewer item={item} prev={null} next={null} onNavigate={jest.fn()} onClose={onClose} actions={actions()} />,
    );
    fireEvent(dialog(), new Event('cancel', { cancelable: true }));
    fireEvent(dialog(), new Event('close'));
    expect(onClose).toHaveBeenCalledTimes(1);
    expect((screen.getByRole('button', { name: 'Previous' }) as HTMLButtonElement).disabled).toBe(true);
    unmount();
    const onClose2 = jest.fn();
    render(
      <Viewer item={item} prev={null} next={null} onNavigate={jest.fn()} onClose={onClose2} actions={actions()} />,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Close viewer' }));
    expect(onClose2).toHaveBeenCalledTimes(1);
  });

  it('favourites, trashes and adds to an album with buttons and keys', () => {
    const a = actions();
    render(<Viewer item={item} prev={null} next={null} onNavigate={jest.fn()} onClose={jest.fn()} actions={a} />);
    const fav = screen.getByRole('button', { name: 'Favourite' });
    expect(fav.getAttribute('aria-pressed')).toBe('false');
    fireEvent.click(fav);
    expect(a.favourite).toHaveBeenCalledWith(item, true);
    fireEvent.keyDown(dialog(), { key: 'f' });
    expect(a.favourite).toHaveBeenCalledTimes(2);
    fireEvent.keyDown(dialog(), { key: 'Delete' });
    expect(a.trash).toHaveBeenCalledWith(item);
    fireEvent.keyDown(dialog(), { key: 'a' });
    expect(a.addToAlbum).toHaveBeenCalledWith(item);
  });

  it('shows the info panel with camera, exposure, dimensions and location, and saves a description', async () => {
    const a = actions();
    render(<Viewer item={item} prev={null} next={null} onNavigate={jest.fn()} onClose={jest.fn()} actions={a} />);
    fireEvent.keyDown(dialog(), { key: 'i' });
    const info = screen.getByRole('complementary', { name: 'Info' });
    expect(info.textContent).toContain('Google Pixel 8');
    expect(info.textContent).toContain('ƒ/1.8 · 1/100 s');
    expect(info.textContent).toContain('4032 × 3024');
    expect(info.textContent).toContain('here.jpg');
    expect(info.textContent).toContain('3.3 MB');
    expect(screen.getByRole('link', { name: /52\.37000° N/ })).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Description'), { target: { value: 'At the harbour' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(a.describe).toHaveBeenCalledWith(item, 'At the harbour');
    await screen.findByText('Saved');
  });

  it('edits the date taken in local time: Enter saves with the offset, Esc cancels and leaves the viewer open', async () => {
    const a = actions();
    const onClose = jest.fn();
    render(<Viewer item={item} prev={null} next={null} onNavigate={jest.fn()} onClose={onClose} actions={a} />);
    fireEvent.click(screen.getByRole('button', { name: 'Info' }));
    fireEvent.click(screen.getByRole('button', { name: 'Edit date taken' }));
    const input = screen.getByLabelText('Date taken') as HTMLInputElement;
    // The same instant, in the browser's time zone.
    expect(new Date(fromLocalInput(input.value)!).toISOString()).toBe(item.creationTime);
    expect(document.activeElement).toBe(input);

    fireEvent.keyDown(input, { key: 'Escape' });
    expect(screen.queryByLabelText('Date taken')).toBeNull();
    expect(onClose).not.toHaveBeenCalled();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Edit date taken' }));

    fireEvent.click(screen.getByRole('button', { name: 'Edit date taken' }));
    fireEvent.change(screen.getByLabelText('Date taken'), { target: { value: '2019-07-14T16:30' } });
    await act(async () => {
      fireEvent.keyDown(screen.getByLabelText('Date taken'), { key: 'Enter' });
    });
    expect(a.edit).toHaveBeenCalledTimes(1);
    const sent = a.edit.mock.calls[0][1].creationTime!;
    expect(sent).toMatch(/^2019-07-14T16:30:00[+-]\d{2}:\d{2}$/);
    expect(new Date(sent).getTime()).toBe(new Date(2019, 6, 14, 16, 30).getTime());
    expect(screen.queryByLabelText('Date taken')).toBeNull();
  });

  it('edits the location: checks the numbers, fills both from a pasted "lat, lon", shows what the API refused', async () => {
    const a = actions();
    render(<Viewer item={item} prev={null} next={null} onNavigate={jest.fn()} onClose={jest.fn()} actions={a} />);
    fireEvent.click(screen.getByRole('button', { name: 'Info' }));
    fireEvent.click(screen.getByRole('button', { name: 'Edit location' }));
    const form = screen.getByRole('form', { name: 'Edit location' });
    const lat = within(form).getByLabelText('Latitude') as HTMLInputElement;
    const lon = within(form).getByLabelText('Longitude') as HTMLInputElement;
    expect([lat.value, lon.value]).toEqual(['52.37', '4.89']);

    fireEvent.change(lat, { target: { value: '91' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    expect(within(form).getByRole('alert').textContent).toBe('The latitude must be a number from −90 to 90.');
    expect(a.edit).not.toHaveBeenCalled();

    fireEvent.paste(lat, { clipboardData: { getData: () => '48.8584, 2.2945' } });
    expect([lat.value, lon.value]).toEqual(['48.8584', '2.2945']);
    expect(within(form).queryByRole('alert')).toBeNull();
    a.edit.mockRejectedValueOnce(new Error('the API said no'));
    await act(async () => {
      fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    });
    expect(a.edit).toHaveBeenLastCalledWith(item, { latitude: 48.8584, longitude: 2.2945 });
    expect(within(form).getByRole('alert').textContent).toBe('the API said no');

    await act(async () => {
      fireEvent.click(within(form).getByRole('button', { name: 'Clear' }));
    });
    expect(a.edit).toHaveBeenLastCalledWith(item, { latitude: null, longitude: null });
    expect(screen.queryByRole('form', { name: 'Edit location' })).toBeNull();
  });

  it('does not take keys typed into the description', () => {
    const onNavigate = jest.fn();
    render(
      <Viewer item={item} prev={prev} next={next} onNavigate={onNavigate} onClose={jest.fn()} actions={actions()} />,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Info' }));
    fireEvent.keyDown(screen.getByLabelText('Description'), { key: 'ArrowRight' });
    expect(onNavigate).not.toHaveBeenCalled();
  });

  it('plays videos with controls, and is read-only without actions (shared albums)', () => {
    const video = makeItem({ mediaItemType: 'video', filename: 'clip.mp4' });
    const { container } = render(
      <Viewer item={video} prev={null} next={null} onNavigate={jest.fn()} onClose={jest.fn()} />,
    );
    const el = container.querySelector('video') as HTMLVideoElement;
    expect(el.getAttribute('src')).toBe(video.previewUrl);
    expect(el.controls).toBe(true);
    expect(screen.queryByRole('button', { name: 'Move to trash' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Favourite' })).toBeNull();
  });

  it('says a video is still being processed instead of a broken player', () => {
    render(
      <Viewer
        item={makeItem({ mediaItemType: 'video', status: 'PROCESSING' })}
        prev={null}
        next={null}
        onNavigate={jest.fn()}
        onClose={jest.fn()}
      />,
    );
    expect(screen.getByText(/still being processed/)).toBeTruthy();
  });
});

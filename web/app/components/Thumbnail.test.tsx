/** @jest-environment jsdom */
import { fireEvent, render, screen } from '@testing-library/react';
import { makeItem } from '../../test/fixtures';
import { Thumbnail } from './Thumbnail';
import type { ThumbnailProps } from './Thumbnail';

function renderTile(over: Partial<ThumbnailProps> = {}) {
  const props: ThumbnailProps = {
    item: makeItem({ filename: 'cat.jpg', placeholder: null }),
    href: '?item=x',
    x: 10,
    y: 20,
    width: 200,
    height: 150,
    selectable: true,
    selected: false,
    selecting: false,
    onOpen: jest.fn(),
    onToggle: jest.fn(),
    ...over,
  };
  const view = render(<Thumbnail {...props} />);
  return { props, ...view };
}

describe('Thumbnail', () => {
  it('is a box of the computed size with the image described for screen readers', () => {
    const { container } = renderTile();
    const tile = container.querySelector('.tile') as HTMLElement;
    expect(tile.style.width).toBe('200px');
    expect(tile.style.height).toBe('150px');
    expect(screen.getByRole('img').getAttribute('alt')).toMatch(/^Photo cat\.jpg/);
    expect(screen.getByRole('link').getAttribute('href')).toBe('?item=x');
  });

  it('fades the thumbnail in once it has loaded', () => {
    renderTile();
    const img = screen.getByRole('img');
    expect(img.className).toBe('thumb');
    fireEvent.load(img);
    expect(img.className).toBe('thumb loaded');
  });

  it('shows an item still processing as such, and one that failed', () => {
    const { rerender, props } = renderTile({ item: makeItem({ status: 'PROCESSING', width: null, height: null }) });
    expect(screen.getByText('Processing…')).toBeTruthy();
    expect(screen.getByRole('link').getAttribute('aria-busy')).toBe('true');
    rerender(<Thumbnail {...props} item={makeItem({ status: 'FAILED', failureReason: 'corrupt file' })} />);
    expect(screen.getByText('Could not process')).toBeTruthy();
  });

  it('opens on click, and selects instead while something is selected or with Shift', () => {
    const { props, rerender } = renderTile();
    fireEvent.click(screen.getByRole('link'));
    expect(props.onOpen).toHaveBeenCalledWith(props.item.id);
    fireEvent.click(screen.getByRole('link'), { shiftKey: true });
    expect(props.onToggle).toHaveBeenLastCalledWith(props.item.id, true);
    rerender(<Thumbnail {...props} selecting />);
    fireEvent.click(screen.getByRole('link'));
    expect(props.onToggle).toHaveBeenLastCalledWith(props.item.id, false);
    expect(props.onOpen).toHaveBeenCalledTimes(1);
  });

  it('has a labelled check button that says whether the item is selected', () => {
    const { props, rerender } = renderTile();
    const check = screen.getByRole('button', { name: /^Select Photo cat\.jpg/ });
    expect(check.getAttribute('aria-pressed')).toBe('false');
    fireEvent.click(check);
    expect(props.onToggle).toHaveBeenCalledWith(props.item.id, false);
    rerender(<Thumbnail {...props} selected />);
    expect(screen.getByRole('button', { name: /^Select/ }).getAttribute('aria-pressed')).toBe('true');
  });

  it('marks videos and favourites, and has no check where nothing can be selected', () => {
    const { container } = renderTile({
      item: makeItem({ mediaItemType: 'video', favourite: true }),
      selectable: false,
    });
    expect(container.querySelector('.badge-video')).not.toBeNull();
    expect(container.querySelector('.badge-favourite')).not.toBeNull();
    expect(screen.queryByRole('button')).toBeNull();
  });
});

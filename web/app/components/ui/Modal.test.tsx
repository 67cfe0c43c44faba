/** @jest-environment jsdom */
import { fireEvent, render, screen } from '@testing-library/react';
import { Modal } from './Modal';

function dialog() {
  return screen.getByRole('dialog', { name: 'Rename' });
}

describe('Modal', () => {
  it('is a dialog named by its title, open as soon as it mounts', () => {
    render(
      <Modal title="Rename" onClose={jest.fn()}>
        <p>Inside</p>
      </Modal>,
    );
    expect(dialog().hasAttribute('open')).toBe(true);
    expect(dialog().textContent).toContain('Inside');
  });

  it('closes once on Esc (the cancel, then the close the browser may send), and with its button', () => {
    const onClose = jest.fn();
    const { unmount } = render(
      <Modal title="Rename" onClose={onClose}>
        x
      </Modal>,
    );
    const cancel = new Event('cancel', { cancelable: true });
    fireEvent(dialog(), cancel);
    fireEvent(dialog(), new Event('close'));
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(cancel.defaultPrevented).toBe(true);
    unmount();
    const onClose2 = jest.fn();
    render(
      <Modal title="Rename" onClose={onClose2}>
        x
      </Modal>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(onClose2).toHaveBeenCalledTimes(1);
  });

  it('closes on a click on the backdrop, not on one inside', () => {
    const onClose = jest.fn();
    render(
      <Modal title="Rename" onClose={onClose}>
        <p>Inside</p>
      </Modal>,
    );
    fireEvent.click(screen.getByText('Inside'));
    expect(onClose).not.toHaveBeenCalled();
    fireEvent.click(dialog());
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});

import { Modal } from './ui/Modal';
import { VIEWER_SHORTCUTS } from './Viewer';
import './Shortcuts.css';

export const GRID_SHORTCUTS: [string, string][] = [
  ['← / → / ↑ / ↓', 'Move between photos'],
  ['Enter', 'Open the photo or video'],
  ['X', 'Select or deselect the photo'],
  ['Shift+click', 'Select a range'],
  ['Ctrl+A', 'Select everything loaded'],
  ['Esc', 'Clear the selection'],
  ['U', 'Upload photos and videos'],
  ['/', 'Search'],
  ['?', 'Show these shortcuts'],
];

function Table({ caption, rows }: { caption: string; rows: [string, string][] }) {
  return (
    <table className="shortcuts">
      <caption>{caption}</caption>
      <tbody>
        {rows.map(([k, v]) => (
          <tr key={k}>
            <th scope="row">
              {k.split(' / ').map((part, i) => (
                <span key={part}>
                  {i > 0 ? ' / ' : ''}
                  <kbd>{part}</kbd>
                </span>
              ))}
            </th>
            <td>{v}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function ShortcutsDialog({ onClose }: { onClose(): void }) {
  return (
    <Modal title="Keyboard shortcuts" onClose={onClose}>
      <Table caption="Photos" rows={GRID_SHORTCUTS} />
      <Table caption="Viewer" rows={VIEWER_SHORTCUTS} />
    </Modal>
  );
}

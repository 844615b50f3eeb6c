import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { Rendition } from './api/playback';

/**
 * "Quality: 720p" in the control bar: a menu of the renditions (menuitemradio, the current one
 * checked). ↑/↓ move, Escape or a click outside closes; a pick closes it and returns focus.
 */
export function QualityMenu({
  renditions,
  current,
  onPick,
}: {
  renditions: readonly Rendition[];
  current: Rendition;
  onPick: (rendition: Rendition) => void;
}) {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLUListElement>(null);

  useEffect(() => {
    if (!open) return undefined;
    menu.current?.querySelector<HTMLElement>('[aria-checked="true"]')?.focus();
    const onPointerDown = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [open]);

  const close = () => {
    setOpen(false);
    button.current?.focus();
  };

  const onMenuKeyDown = (event: KeyboardEvent<HTMLUListElement>) => {
    const items = [...(menu.current?.querySelectorAll<HTMLElement>('[role="menuitemradio"]') ?? [])];
    const at = items.indexOf(document.activeElement as HTMLElement);
    if (event.key === 'Escape') close();
    else if (event.key === 'ArrowDown') items[(at + 1) % items.length]?.focus();
    else if (event.key === 'ArrowUp') items[(at - 1 + items.length) % items.length]?.focus();
    else return;
    // Handled here: the page-wide shortcuts leave an already handled key alone.
    event.preventDefault();
  };

  return (
    <div className="player-quality" ref={root}>
      <button
        ref={button}
        type="button"
        className="player-button player-quality-button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-label={`Quality: ${current.label}`}
        onClick={() => setOpen((was) => !was)}
      >
        {current.label}
      </button>
      {open ? (
        <ul ref={menu} className="player-menu" role="menu" aria-label="Quality" onKeyDown={onMenuKeyDown}>
          {renditions.map((r) => (
            <li key={r.label} role="none">
              <button
                type="button"
                role="menuitemradio"
                aria-checked={r === current}
                className="player-menu-item"
                onClick={() => {
                  onPick(r);
                  close();
                }}
              >
                {r.label}
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/** What a key does on a watch page. */
export type ShortcutAction = 'toggle' | 'back' | 'forward' | 'fullscreen' | 'mute';

const KEYS: Record<string, ShortcutAction> = {
  ' ': 'toggle',
  k: 'toggle',
  K: 'toggle',
  ArrowLeft: 'back',
  ArrowRight: 'forward',
  f: 'fullscreen',
  F: 'fullscreen',
  m: 'mute',
  M: 'mute',
};

/** Where the member is typing: the key belongs to the field. */
function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName) || target.isContentEditable) return true;
  // (isContentEditable, spelled out for engines that lack it)
  return target.closest('[contenteditable=""], [contenteditable="true"], [contenteditable="plaintext-only"]') !== null;
}

/** A control that Space (and Enter) activates itself: the shortcut would act a second time. */
function activatesOnSpace(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLElement &&
    (['BUTTON', 'A', 'SUMMARY'].includes(target.tagName) || /^(?:button|menuitem\w*|link)$/.test(target.getAttribute('role') ?? ''))
  );
}

/**
 * The player's action for a keydown anywhere on the page, or null: k/Space play-pause, ←/→ seek,
 * f full screen, m mute. Never while typing (input, textarea, select, contenteditable), with
 * Ctrl/Alt/Meta (the browser's and the system's shortcuts), for a key something else has already
 * handled, or Space on a focused button or link (which presses it).
 */
export function shortcutFor(event: KeyboardEvent): ShortcutAction | null {
  if (event.defaultPrevented || event.ctrlKey || event.altKey || event.metaKey || isTyping(event.target)) return null;
  const action = KEYS[event.key] ?? null;
  if (action === 'toggle' && event.key === ' ' && activatesOnSpace(event.target)) return null;
  return action;
}

/**
 * A document keydown listener for the player's shortcuts (page-wide while the player is mounted).
 * Only a handled key is prevented, so Space and the arrows do not also scroll the page; every
 * other key keeps its default.
 */
export function listenForShortcuts(doc: Document, act: (action: ShortcutAction) => void): () => void {
  const onKeyDown = (event: KeyboardEvent) => {
    const action = shortcutFor(event);
    if (!action) return;
    event.preventDefault();
    act(action);
  };
  doc.addEventListener('keydown', onKeyDown);
  return () => doc.removeEventListener('keydown', onKeyDown);
}

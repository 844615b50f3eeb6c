import { useEffect, useSyncExternalStore } from 'react';
import { HttpError } from '../api/fetchJson';
import { useSession } from '../../hooks/useSession';
import { deleteSaved, getSaved, putSaved, type SavedItem, type SavedType } from './api';

/**
 * My list as this tab knows it: read once per signed-in member (GET /api/saved), then kept in step
 * with each save and removal, which show at once and are undone if the bff refuses them. Every Save
 * button and the My list page read this one store, so a heart pressed on a card is pressed on the
 * item's page too.
 */
export type SavedState =
  | { status: 'idle' }
  | { status: 'loading'; member: string }
  | { status: 'ready'; member: string; items: SavedItem[] }
  | { status: 'failed'; member: string; error: Error };

let state: SavedState = { status: 'idle' };
const listeners = new Set<() => void>();

function set(next: SavedState): void {
  state = next;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const idOf = (type: SavedType, key: string) => `${type}\n${key}`;

function load(member: string): void {
  set({ status: 'loading', member });
  getSaved().then(
    (list) => {
      if (state.status === 'idle' || state.member !== member) return;
      // An answer that is not the list (a proxy's page) is a failure, not an empty list.
      if (Array.isArray(list?.items)) set({ status: 'ready', member, items: list.items });
      else set({ status: 'failed', member, error: new Error('My list could not be read') });
    },
    (error: unknown) => {
      const failure = error instanceof Error ? error : new Error(String(error));
      if (state.status !== 'idle' && state.member === member) set({ status: 'failed', member, error: failure });
    },
  );
}

/** Reads My list for the signed-in member (again after a failure, on `retry`); nothing for visitors. */
export function useSaved(): SavedState & { retry: () => void } {
  const session = useSession();
  const member = session.status === 'signedIn' ? session.member.username : null;
  const current = useSyncExternalStore(subscribe, () => state);
  useEffect(() => {
    if (member === null) {
      // Signed out: forget the list. Unknown (an outage): keep what was known.
      if (state.status !== 'idle' && session.status === 'signedOut') set({ status: 'idle' });
      return;
    }
    if (state.status === 'idle' || state.member !== member) load(member);
  }, [member, session.status]);
  const retry = () => {
    if (member !== null) load(member);
  };
  return { ...current, retry };
}

export function isSaved(saved: SavedState, type: SavedType, key: string): boolean {
  return saved.status === 'ready' && saved.items.some((item) => idOf(item.type, item.key) === idOf(type, key));
}

/** What to tell the member when a save or removal was refused. */
function refusal(error: unknown, saving: boolean): string {
  if (error instanceof HttpError && error.serverMessage && error.status < 500) return error.serverMessage;
  return saving ? 'Could not save it. Try again in a moment.' : 'Could not remove it. Try again in a moment.';
}

/** The list with `item` back in its place (newest first). */
function restored(items: SavedItem[], item: SavedItem | undefined): SavedItem[] {
  if (!item) return items;
  const at = items.findIndex((i) => i.savedAt < item.savedAt);
  return at === -1 ? [...items, item] : [...items.slice(0, at), item, ...items.slice(at)];
}

/**
 * Saves or removes the item, shown at once; on a refusal the list goes back to what it was and the
 * promise rejects with a sentence for the member.
 */
export async function toggleSaved(item: { type: SavedType; key: string; title: string }): Promise<void> {
  if (state.status !== 'ready') return;
  const { member } = state;
  const before = state.items;
  const saving = !before.some((i) => idOf(i.type, i.key) === idOf(item.type, item.key));
  const placeholder: SavedItem = {
    type: item.type,
    key: item.key,
    title: item.title,
    modelname: null,
    thumbnail: null,
    savedAt: new Date().toISOString(),
  };
  const removed = before.find((i) => idOf(i.type, i.key) === idOf(item.type, item.key));
  set({ status: 'ready', member, items: saving ? [placeholder, ...before] : before.filter((i) => i !== removed) });
  try {
    if (saving) {
      const stored = await putSaved(item.type, item.key);
      if (state.status === 'ready' && state.member === member)
        set({ ...state, items: state.items.map((i) => (i === placeholder ? stored : i)) });
    } else await deleteSaved(item.type, item.key);
  } catch (error) {
    // Undo this change only: another save may have happened meanwhile.
    if (state.status === 'ready' && state.member === member)
      set({ ...state, items: saving ? state.items.filter((i) => i !== placeholder) : restored(state.items, removed) });
    throw new Error(refusal(error, saving), { cause: error });
  }
}

/** For tests: forget the list (a new test starts with none read). */
export function resetSaved(): void {
  set({ status: 'idle' });
}

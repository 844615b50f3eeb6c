/** The message /ccbill, framed in /join, sends its parent: only ever to our own origin. */
export const FRAME_HEIGHT_MESSAGE = 'ccbill-frame-height';

export interface FrameHeightMessage {
  type: typeof FRAME_HEIGHT_MESSAGE;
  height: number;
}

export function isFrameHeightMessage(data: unknown): data is FrameHeightMessage {
  return (
    typeof data === 'object' &&
    data !== null &&
    (data as FrameHeightMessage).type === FRAME_HEIGHT_MESSAGE &&
    Number.isFinite((data as FrameHeightMessage).height)
  );
}

/**
 * The content's height, not the document's: the document's scrollHeight is never less than the
 * frame itself, so a frame that once grew could not shrink back (400–700 px of empty frame under
 * "Transaction failed."). The app root's full-page minimum height is dropped for the same reason.
 */
export function contentHeight(root: HTMLElement): number {
  const margin = Number.parseFloat(getComputedStyle(document.body).marginBottom) || 0;
  return Math.ceil(root.getBoundingClientRect().bottom + window.scrollY + margin);
}

/** Posts the content's height to the parent whenever it changes (fields' errors, the status line); returns the stop. */
export function reportFrameHeight(): () => void {
  const root = document.getElementById('root') ?? document.body;
  root.style.minHeight = '0';
  const post = () => {
    window.parent.postMessage(
      { type: FRAME_HEIGHT_MESSAGE, height: contentHeight(root) } satisfies FrameHeightMessage,
      window.location.origin,
    );
  };
  const observer = new ResizeObserver(post);
  observer.observe(root);
  post();
  return () => observer.disconnect();
}

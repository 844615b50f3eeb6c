/** The message /ccbill, framed in /join, sends its parent: only ever to our own origin. */
export const FRAME_HEIGHT_MESSAGE = 'ccbill-frame-height';

export interface FrameHeightMessage {
  type: typeof FRAME_HEIGHT_MESSAGE;
  height: number;
}

export function isFrameHeightMessage(data: unknown): data is FrameHeightMessage {
  return typeof data === 'object' && data !== null && (data as FrameHeightMessage).type === FRAME_HEIGHT_MESSAGE && Number.isFinite((data as FrameHeightMessage).height);
}

/** Posts the document's height to the parent whenever it changes (fields' errors, the status line); returns the stop. */
export function reportFrameHeight(): () => void {
  const post = () => {
    const height = Math.ceil(document.documentElement.scrollHeight);
    window.parent.postMessage({ type: FRAME_HEIGHT_MESSAGE, height } satisfies FrameHeightMessage, window.location.origin);
  };
  const observer = new ResizeObserver(post);
  observer.observe(document.body);
  post();
  return () => observer.disconnect();
}

/**
 * Adds each handler to `target` for the event it is keyed by, and returns the function that
 * removes them all again (an effect's clean-up).
 */
export function listen(target: EventTarget, handlers: Record<string, (event: Event) => void>): () => void {
  const entries = Object.entries(handlers);
  for (const [type, handler] of entries) target.addEventListener(type, handler);
  return () => {
    for (const [type, handler] of entries) target.removeEventListener(type, handler);
  };
}

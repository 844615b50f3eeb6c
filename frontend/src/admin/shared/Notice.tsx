/** What the last change did, in words, announced without taking the focus (a `role="status"`). */
export function Notice({ text }: { text: string }) {
  if (!text) return null;
  return (
    <p role="status" className="admin-notice">
      {text}
    </p>
  );
}

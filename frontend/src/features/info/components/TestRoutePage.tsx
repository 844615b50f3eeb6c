export function TestRoutePage() {
  return (
    <section>
      <h1>Test Route Match</h1>
    </section>
  );
}

export function ComingSoonPage() {
  return (
    <section>
      <h1>Coming Soon</h1>
    </section>
  );
}

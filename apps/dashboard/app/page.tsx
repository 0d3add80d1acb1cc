export default function HomePage() {
  return (
    <main>
      <h1>Sluice</h1>
      <p>
        Operators will configure plans and rate-limit policies here, and tenants will watch their
        live usage. None of that is built yet.
      </p>
    </main>
  );
}

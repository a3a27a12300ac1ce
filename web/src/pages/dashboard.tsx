export function DashboardPage() {
  return (
    <main>
      <h1>Dashboard</h1>
    </main>
  );
}

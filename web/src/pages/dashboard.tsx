// /dashboard: a merchant signs in with an API key alone (kept in this tab's sessionStorage, never in
// a URL) and sees its business through the public API only: revenue per day and the CSV of pulls,
// subscriptions (attention first) with their pull history and actions, plans, events and webhooks.
import { useEffect, useState } from 'preact/hooks';
import { api, errorText, session, type Session } from '../api/client.ts';
import { Activity } from '../dashboard/activity.tsx';
import { Plans } from '../dashboard/plans.tsx';
import { Revenue } from '../dashboard/revenue.tsx';
import { Subscriptions } from '../dashboard/subscriptions.tsx';

export function DashboardPage() {
  const [current, setCurrent] = useState<Session | null>(session.get());
  const [name, setName] = useState<string>('');
  // A change anywhere (a plan created, a cycle collected) refreshes every panel.
  const [version, setVersion] = useState(0);
  const refresh = () => setVersion((v) => v + 1);

  useEffect(() => {
    if (!current) return;
    api.GET('/merchants/{id}', { params: { path: { id: current.merchantId } } }).then(({ data }) => {
      if (data) setName(data.merchant.name);
      else {
        session.clear();
        setCurrent(null);
      }
    });
  }, [current]);

  if (!current) return <SignIn onSignedIn={setCurrent} />;
  return (
    <main>
      <header class="top">
        <div>
          <p class="brand">Merchant dashboard</p>
          <h1 data-testid="merchant-name">{name || '…'}</h1>
        </div>
        <button
          type="button"
          class="secondary"
          onClick={() => {
            session.clear();
            setCurrent(null);
          }}
        >
          Sign out
        </button>
      </header>
      <div class="grid">
        <Revenue merchantId={current.merchantId} version={version} />
        <Plans merchantId={current.merchantId} version={version} onChange={refresh} />
      </div>
      <Subscriptions merchantId={current.merchantId} version={version} onChange={refresh} />
      <Activity version={version} />
    </main>
  );
}

function SignIn({ onSignedIn }: { onSignedIn: (s: Session) => void }) {
  const [apiKey, setApiKey] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(e: Event) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    const key = apiKey.trim();
    // The key is sent once, as a header, to learn whose it is (GET /api-keys/current).
    const {
      data,
      error: err,
      response,
    } = await api.GET('/api-keys/current', {
      headers: { Authorization: `Bearer ${key}` },
    });
    setBusy(false);
    if (!data) return setError(`Sign-in failed: ${errorText(err, response)}`);
    if (!data.merchant)
      return setError("Sign-in failed: this is the operator's key; sign in with a merchant's API key");
    const s = { merchantId: data.merchant.id, apiKey: key };
    session.set(s);
    onSignedIn(s);
  }

  return (
    <main class="narrow">
      <p class="brand">Merchant dashboard</p>
      <h1>Sign in</h1>
      <form class="card" onSubmit={submit}>
        <label for="api-key">API key</label>
        <input
          id="api-key"
          type="password"
          autoComplete="current-password"
          required
          value={apiKey}
          onInput={(e) => setApiKey((e.target as HTMLInputElement).value)}
        />
        <p class="hint">
          A merchant API key (<code>bk_…</code>). It stays in this browser tab (sessionStorage) and is sent only as a
          Bearer header, never in a URL.
        </p>
        <div class="actions">
          <button type="submit" disabled={busy}>
            Sign in
          </button>
        </div>
        {error && (
          <p role="alert" class="notice error">
            {error}
          </p>
        )}
      </form>
    </main>
  );
}

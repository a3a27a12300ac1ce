// The merchant's plans (GET /merchants/{id}/plans) with their checkout links, and a form to
// create one (POST /plans). Prices are raw token units, as the API takes them.
import { useEffect, useState } from 'preact/hooks';
import { api, errorText } from '../api/client.ts';
import { intervalWords, shortAddress } from '../format.ts';

type Plan = {
  id: string;
  name: string;
  token_amount: number;
  interval_seconds: number;
  token_contract_id: string | null;
  archived_at: string | null;
};

const INTERVALS: [number, string][] = [
  [86_400, 'Daily'],
  [604_800, 'Weekly'],
  [2_592_000, 'Monthly (30 days)'],
  [31_536_000, 'Yearly (365 days)'],
];

export function Plans({
  merchantId,
  version,
  onChange,
}: {
  merchantId: string;
  version: number;
  onChange: () => void;
}) {
  const [plans, setPlans] = useState<Plan[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<string | null>(null);
  const [form, setForm] = useState({ name: '', amount: '', interval: '2592000', token: '' });

  useEffect(() => {
    api
      .GET('/merchants/{id}/plans', { params: { path: { id: merchantId }, query: { limit: 100 } } })
      .then(({ data }) => {
        if (data) setPlans(data.plans);
      });
  }, [merchantId, version]);

  async function create(e: Event) {
    e.preventDefault();
    setError(null);
    setCreated(null);
    const {
      data,
      error: err,
      response,
    } = await api.POST('/plans', {
      body: {
        merchant_id: merchantId,
        name: form.name,
        // Numeric text stays exact however large (the API takes numeric strings).
        token_amount: form.amount.trim() as unknown as number,
        interval_seconds: Number(form.interval),
        ...(form.token.trim() ? { token_contract_id: form.token.trim() } : {}),
      },
    });
    if (!data) return setError(errorText(err, response));
    setCreated(data.plan.id);
    setForm({ ...form, name: '', amount: '' });
    onChange();
  }

  const set = (k: keyof typeof form) => (e: Event) => setForm({ ...form, [k]: (e.target as HTMLInputElement).value });
  return (
    <section class="card" aria-labelledby="plans-title">
      <h2 id="plans-title">Plans</h2>
      <ul data-testid="plans">
        {plans.length === 0 && <li>No plans yet.</li>}
        {plans.map((p) => (
          <li key={p.id}>
            <strong>{p.name}</strong>: {String(p.token_amount)} raw units {intervalWords(p.interval_seconds)}
            {p.token_contract_id ? ` in ${shortAddress(p.token_contract_id)}` : ', no token'}
            {p.archived_at ? ' (archived)' : ''} · <a href={`/checkout/${p.id}`}>checkout link</a>
          </li>
        ))}
      </ul>
      <form onSubmit={create} aria-labelledby="new-plan">
        <h3 id="new-plan">New plan</h3>
        <label for="plan-name">Name</label>
        <input id="plan-name" required value={form.name} onInput={set('name')} />
        <label for="plan-amount">Price per cycle (raw token units, e.g. 10000000 = 1 token of 7 decimals)</label>
        <input id="plan-amount" required inputMode="numeric" value={form.amount} onInput={set('amount')} />
        <label for="plan-interval">Billing interval</label>
        <select id="plan-interval" value={form.interval} onChange={set('interval')}>
          {INTERVALS.map(([s, label]) => (
            <option key={s} value={String(s)}>
              {label}
            </option>
          ))}
        </select>
        <label for="plan-token">Token contract (C…; empty: the service's default token)</label>
        <input id="plan-token" value={form.token} onInput={set('token')} />
        <div class="actions">
          <button type="submit">Create plan</button>
        </div>
        {error && (
          <p role="alert" class="notice error">
            {error}
          </p>
        )}
        {created && (
          <p role="status" class="notice ok" data-testid="plan-created">
            Plan created. Share its checkout link: <a href={`/checkout/${created}`}>/checkout/{created}</a>
          </p>
        )}
      </form>
    </section>
  );
}

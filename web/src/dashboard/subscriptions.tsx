// Subscriptions (GET /merchants/{id}/subscriptions: filters, cursor pages), each page read in
// detail (GET /subscriptions/{id}: health) and sorted so failed and past-due ones come first;
// one subscription's pull history with transaction hashes and its actions: collect now
// (POST /trigger-pull), pause, resume, cancel.
import { useEffect, useState } from 'preact/hooks';
import { api, errorText } from '../api/client.ts';
import { dateTime, shortAddress } from '../format.ts';

type Sub = {
  id: string;
  plan_id: string;
  customer_wallet_address: string;
  status: string;
  next_billing_date: string;
  health?: { status: string; detail?: string | null } | null;
};

const ATTENTION: Record<string, number> = { past_due: 0, unpaid: 1 };
const rank = (s: Sub) =>
  ATTENTION[s.status] ?? (s.health && s.health.status !== 'ok' && s.health.status !== 'unknown' ? 2 : 3);

type Status = 'active' | 'past_due';

export function Subscriptions({
  merchantId,
  version,
  onChange,
}: {
  merchantId: string;
  version: number;
  onChange: () => void;
}) {
  const [status, setStatus] = useState<Status | ''>('');
  const [planId, setPlanId] = useState('');
  const [plans, setPlans] = useState<{ id: string; name: string }[]>([]);
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const [rows, setRows] = useState<Sub[]>([]);
  const [next, setNext] = useState<string | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const cursor = cursors[cursors.length - 1];

  useEffect(() => {
    api
      .GET('/merchants/{id}/plans', { params: { path: { id: merchantId }, query: { limit: 100 } } })
      .then(({ data }) => data && setPlans(data.plans));
  }, [merchantId, version]);

  useEffect(() => {
    (async () => {
      const {
        data,
        error: err,
        response,
      } = await api.GET('/merchants/{id}/subscriptions', {
        params: {
          path: { id: merchantId },
          query: { limit: 25, cursor, ...(status ? { status } : {}), ...(planId ? { plan_id: planId } : {}) },
        },
      });
      if (!data) return setError(errorText(err, response));
      setError(null);
      const detailed = await Promise.all(
        data.subscriptions.map(async (s) => {
          const d = await api.GET('/subscriptions/{id}', { params: { path: { id: s.id } } });
          return (d.data?.subscription ?? s) as Sub;
        }),
      );
      setRows(detailed.sort((a, b) => rank(a) - rank(b)));
      setNext(data.next_cursor);
    })();
  }, [merchantId, status, planId, cursor, version]);

  // Past-due subscriptions of every page, above the list (the listing pages by creation date).
  const [attention, setAttention] = useState<Sub[]>([]);
  useEffect(() => {
    api
      .GET('/merchants/{id}/subscriptions', {
        params: {
          path: { id: merchantId },
          query: { limit: 100, status: 'past_due', ...(planId ? { plan_id: planId } : {}) },
        },
      })
      .then(({ data }) => setAttention((data?.subscriptions ?? []) as Sub[]));
  }, [merchantId, planId, version]);

  const planName = (id: string) => plans.find((p) => p.id === id)?.name ?? shortAddress(id);
  const refilter = (f: () => void) => {
    f();
    setCursors([undefined]);
  };

  return (
    <section class="card" aria-labelledby="subs-title">
      <h2 id="subs-title">Subscriptions</h2>
      <div class="toolbar">
        <div>
          <label for="filter-status">Status</label>
          <select
            id="filter-status"
            value={status}
            onChange={(e) => refilter(() => setStatus((e.target as HTMLSelectElement).value as Status | ''))}
          >
            <option value="">All</option>
            <option value="past_due">Past due</option>
            <option value="active">Active</option>
          </select>
        </div>
        <div>
          <label for="filter-plan">Plan</label>
          <select
            id="filter-plan"
            value={planId}
            onChange={(e) => refilter(() => setPlanId((e.target as HTMLSelectElement).value))}
          >
            <option value="">All plans</option>
            {plans.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </select>
        </div>
      </div>
      {error && (
        <p role="alert" class="notice error">
          {error}
        </p>
      )}
      {attention.length > 0 && (
        <div class="notice error" data-testid="attention">
          <p>
            <strong>Needs attention:</strong> {attention.length} past-due subscription
            {attention.length === 1 ? '' : 's'}
            {attention.length === 100 ? ' (first 100)' : ''}.
          </p>
          <ul>
            {attention.map((s) => (
              <li key={s.id}>
                <button type="button" class="secondary" onClick={() => setSelected(s.id)}>
                  {shortAddress(s.customer_wallet_address)} on {planName(s.plan_id)}, due{' '}
                  {dateTime(s.next_billing_date)}
                </button>
              </li>
            ))}
          </ul>
        </div>
      )}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable table must take keyboard focus (axe: scrollable-region-focusable) */}
      {/* biome-ignore lint/a11y/useSemanticElements: a div keeps the table's layout; the role names the scrollable region for screen readers */}
      <div class="scroll" tabIndex={0} role="region" aria-label="Scrollable table">
        <table data-testid="subscriptions">
          <thead>
            <tr>
              <th scope="col">Subscriber</th>
              <th scope="col">Plan</th>
              <th scope="col">Status</th>
              <th scope="col">Health</th>
              <th scope="col">Next billing</th>
              <th scope="col">
                <span class="hint">Details</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.length === 0 && (
              <tr>
                <td colSpan={6}>No subscriptions match.</td>
              </tr>
            )}
            {rows.map((s) => (
              <tr key={s.id} data-subscription={s.id}>
                <td>
                  <code title={s.customer_wallet_address}>{shortAddress(s.customer_wallet_address)}</code>
                </td>
                <td>{planName(s.plan_id)}</td>
                <td>
                  <span class={`badge ${s.status}`}>{s.status}</span>
                </td>
                <td title={s.health?.detail ?? ''}>{s.health?.status ?? '—'}</td>
                <td>{dateTime(s.next_billing_date)}</td>
                <td>
                  <button
                    type="button"
                    class="secondary"
                    onClick={() => setSelected(s.id)}
                    aria-label={`Open subscription of ${s.customer_wallet_address}`}
                  >
                    Open
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div class="actions">
        <button
          type="button"
          class="secondary"
          disabled={cursors.length === 1}
          onClick={() => setCursors(cursors.slice(0, -1))}
        >
          Previous page
        </button>
        <button type="button" class="secondary" disabled={!next} onClick={() => next && setCursors([...cursors, next])}>
          Next page
        </button>
      </div>
      {selected && <Detail id={selected} version={version} onChange={onChange} onClose={() => setSelected(null)} />}
    </section>
  );
}

type Pull = {
  id: string;
  tx_hash: string | null;
  status: string;
  amount: number;
  created_at: string;
  error: string | null;
  origin: string;
};

function Detail({
  id,
  version,
  onChange,
  onClose,
}: {
  id: string;
  version: number;
  onChange: () => void;
  onClose: () => void;
}) {
  const [sub, setSub] = useState<Sub | null>(null);
  const [pulls, setPulls] = useState<Pull[]>([]);
  const [secret, setSecret] = useState('');
  const [atPeriodEnd, setAtPeriodEnd] = useState(true);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    api
      .GET('/subscriptions/{id}', { params: { path: { id } } })
      .then(({ data }) => data && setSub(data.subscription as Sub));
    api.GET('/subscriptions/{id}/pulls', { params: { path: { id } } }).then(({ data }) => data && setPulls(data.pulls));
    document.getElementById('detail-title')?.focus();
  }, [id, version]);

  async function act(what: string, call: () => Promise<{ data?: unknown; error?: unknown; response: Response }>) {
    setBusy(true);
    setMessage(null);
    const { data, error, response } = await call();
    setBusy(false);
    const body = (data ?? error) as { message?: string; error?: string; txHash?: string } | undefined;
    const ok = response.ok;
    const detail = body?.message ?? body?.error ?? '';
    setMessage({
      ok,
      text: `${what}: ${ok ? 'done' : 'failed'}${detail ? ` (${detail}${body?.txHash ? `, transaction ${body.txHash}` : ''})` : ''}`,
    });
    onChange();
  }

  const path = { params: { path: { id } } };
  return (
    <section class="card" aria-labelledby="detail-title" data-testid="subscription-detail">
      <header class="top">
        <h3 id="detail-title" tabIndex={-1}>
          Subscription {shortAddress(id)}
        </h3>
        <button type="button" class="secondary" onClick={onClose}>
          Close
        </button>
      </header>
      {sub && (
        <p>
          <span class={`badge ${sub.status}`}>{sub.status}</span> · subscriber{' '}
          <code>{sub.customer_wallet_address}</code> · next billing {dateTime(sub.next_billing_date)} · health{' '}
          {sub.health?.status ?? '—'}
          {sub.health?.detail ? `: ${sub.health.detail}` : ''}
        </p>
      )}
      <div class="toolbar">
        <div>
          <label for="merchant-secret">Merchant secret (S…; empty: the stored signing key)</label>
          <input
            id="merchant-secret"
            type="password"
            autoComplete="off"
            value={secret}
            onInput={(e) => setSecret((e.target as HTMLInputElement).value)}
          />
        </div>
        <button
          type="button"
          disabled={busy}
          onClick={() =>
            act('Collect now', () =>
              api.POST('/trigger-pull', {
                body: { subscription_id: id, ...(secret.trim() ? { merchant_secret: secret.trim() } : {}) },
              }),
            )
          }
        >
          Collect now
        </button>
        <button
          type="button"
          class="secondary"
          disabled={busy}
          onClick={() => act('Pause', () => api.POST('/subscriptions/{id}/pause', { ...path, body: {} }))}
        >
          Pause
        </button>
        <button
          type="button"
          class="secondary"
          disabled={busy}
          onClick={() => act('Resume', () => api.POST('/subscriptions/{id}/resume', { ...path, body: {} }))}
        >
          Resume
        </button>
        <label>
          <input
            type="checkbox"
            checked={atPeriodEnd}
            onChange={(e) => setAtPeriodEnd((e.target as HTMLInputElement).checked)}
          />{' '}
          at period end
        </label>
        <button
          type="button"
          class="danger"
          disabled={busy}
          onClick={() =>
            act('Cancel', () =>
              api.POST('/subscriptions/{id}/cancel', { ...path, body: { at_period_end: atPeriodEnd } }),
            )
          }
        >
          Cancel subscription
        </button>
      </div>
      {message && (
        <p
          role={message.ok ? 'status' : 'alert'}
          class={`notice ${message.ok ? 'ok' : 'error'}`}
          data-testid="action-result"
        >
          {message.text}
        </p>
      )}
      <h4>Pull history</h4>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable table must take keyboard focus (axe: scrollable-region-focusable) */}
      {/* biome-ignore lint/a11y/useSemanticElements: a div keeps the table's layout; the role names the scrollable region for screen readers */}
      <div class="scroll" tabIndex={0} role="region" aria-label="Scrollable table">
        <table data-testid="pulls">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Status</th>
              <th scope="col">Amount</th>
              <th scope="col">Transaction</th>
              <th scope="col">Cause</th>
            </tr>
          </thead>
          <tbody>
            {pulls.length === 0 && (
              <tr>
                <td colSpan={5}>No pulls yet.</td>
              </tr>
            )}
            {pulls.map((p) => (
              <tr key={p.id}>
                <td>{dateTime(p.created_at)}</td>
                <td>
                  <span class={`badge ${p.status}`}>{p.status}</span> <span class="hint">{p.origin}</span>
                </td>
                <td>{String(p.amount)}</td>
                <td>
                  <code>{p.tx_hash ?? '—'}</code>
                </td>
                <td>{p.error ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

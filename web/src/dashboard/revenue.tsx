// Revenue collected per day (GET /merchants/{id}/pulls/daily-totals) as a bar chart with a table
// for screen readers, and the CSV export of every pull in a window (GET /merchants/{id}/pulls,
// all pages) for the merchant's books.
import { useEffect, useState } from 'preact/hooks';
import { api, errorText } from '../api/client.ts';

type Day = { date: string; amount: number; pulls: number; token_contract_id: string | null };

const DAY_MS = 86_400_000;

export function Revenue({ merchantId, version }: { merchantId: string; version: number }) {
  const [days, setDays] = useState<Day[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [exporting, setExporting] = useState(false);
  const [csv, setCsv] = useState<{ url: string; name: string; rows: number } | null>(null);

  useEffect(() => {
    // Whole UTC days: the 29 before today, and today.
    const tomorrow = new Date(new Date().toISOString().slice(0, 10)).getTime() + DAY_MS;
    const query = { from: new Date(tomorrow - 30 * DAY_MS).toISOString(), to: new Date(tomorrow).toISOString() };
    api
      .GET('/merchants/{id}/pulls/daily-totals', { params: { path: { id: merchantId }, query } })
      .then(({ data, error: err, response }) => {
        if (data) setDays(data.days);
        else setError(errorText(err, response));
      });
  }, [merchantId, version]);

  async function exportCsv() {
    setExporting(true);
    const to = new Date();
    const from = new Date(to.getTime() - 90 * DAY_MS);
    const rows: string[][] = [];
    let cursor: string | undefined;
    do {
      const {
        data,
        error: err,
        response,
      } = await api.GET('/merchants/{id}/pulls', {
        params: {
          path: { id: merchantId },
          query: { from: from.toISOString(), to: to.toISOString(), limit: 500, cursor },
        },
      });
      if (!data) {
        setExporting(false);
        return setError(errorText(err, response));
      }
      for (const p of data.pulls)
        rows.push([
          p.created_at,
          p.resolved_at ?? '',
          p.subscription_id,
          p.status,
          String(p.amount),
          p.transferred_amount === null ? '' : String(p.transferred_amount),
          p.token_contract_id ?? '',
          p.tx_hash ?? '',
          p.fee_charged === null ? '' : String(p.fee_charged),
          p.error ?? '',
        ]);
      cursor = data.next_cursor ?? undefined;
    } while (cursor);
    const header = [
      'created_at',
      'resolved_at',
      'subscription_id',
      'status',
      'amount',
      'transferred_amount',
      'token',
      'tx_hash',
      'fee_charged_stroops',
      'error',
    ];
    const text = [header, ...rows].map((r) => r.map(csvCell).join(',')).join('\r\n');
    if (csv) URL.revokeObjectURL(csv.url);
    setCsv({
      url: URL.createObjectURL(new Blob([text], { type: 'text/csv' })),
      name: `pulls-${to.toISOString().slice(0, 10)}.csv`,
      rows: rows.length,
    });
    setExporting(false);
  }

  const total = (days ?? []).reduce((s, d) => s + BigInt(d.amount), 0n);
  return (
    <section class="card" aria-labelledby="revenue-title">
      <h2 id="revenue-title">Revenue, last 30 days</h2>
      {error && (
        <p role="alert" class="notice error">
          {error}
        </p>
      )}
      {days && (
        <>
          <p>
            <strong data-testid="revenue-total">{total.toString()}</strong> raw token units collected in{' '}
            {days.reduce((s, d) => s + d.pulls, 0)} pulls
          </p>
          <Chart days={days} />
        </>
      )}
      <div class="actions">
        <button type="button" class="secondary" disabled={exporting} onClick={exportCsv}>
          {exporting ? 'Preparing CSV…' : 'Export pulls of the last 90 days (CSV)'}
        </button>
        {csv && (
          <a href={csv.url} download={csv.name} data-testid="csv-link">
            Download {csv.name} ({csv.rows} pulls)
          </a>
        )}
      </div>
    </section>
  );
}

// A cell a spreadsheet would read as a formula (=, +, -, @ first) is prefixed with ' (OWASP's
// CSV-injection advice): error texts come from the network and are not ours to trust.
function csvCell(raw: string): string {
  const v = /^[=+\-@\t\r]/.test(raw) ? `'${raw}` : raw;
  return /[",\r\n]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v;
}

function Chart({ days }: { days: Day[] }) {
  // 30 UTC days ending today, zero where nothing was collected.
  const today = new Date(new Date().toISOString().slice(0, 10)).getTime();
  const series = Array.from({ length: 30 }, (_, i) => {
    const date = new Date(today - (29 - i) * DAY_MS).toISOString().slice(0, 10);
    const found = days.filter((d) => d.date === date);
    return { date, amount: found.reduce((s, d) => s + d.amount, 0) };
  });
  const max = Math.max(1, ...series.map((s) => s.amount));
  const W = 600;
  const H = 160;
  const bw = W / series.length;
  return (
    <figure>
      <svg
        class="chart"
        viewBox={`0 0 ${W} ${H + 20}`}
        role="img"
        aria-labelledby="chart-desc"
        data-testid="revenue-chart"
      >
        <desc id="chart-desc">
          Daily revenue bars for the last 30 days; the table below lists the days with revenue.
        </desc>
        {series.map((s, i) => {
          const h = (s.amount / max) * H;
          return (
            <rect key={s.date} class="bar" x={i * bw + 2} y={H - h} width={bw - 4} height={h} data-date={s.date}>
              <title>{`${s.date}: ${s.amount}`}</title>
            </rect>
          );
        })}
        <text x="0" y={H + 15}>
          {series[0].date}
        </text>
        <text x={W} y={H + 15} text-anchor="end">
          {series[series.length - 1].date}
        </text>
      </svg>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable table must take keyboard focus (axe: scrollable-region-focusable) */}
      <figcaption class="scroll" tabIndex={0}>
        <table>
          <caption class="hint">Days with revenue</caption>
          <thead>
            <tr>
              <th scope="col">Day (UTC)</th>
              <th scope="col">Collected (raw units)</th>
              <th scope="col">Pulls</th>
            </tr>
          </thead>
          <tbody>
            {days.length === 0 && (
              <tr>
                <td colSpan={3}>Nothing collected yet.</td>
              </tr>
            )}
            {days.map((d) => (
              <tr key={`${d.date}-${d.token_contract_id}`}>
                <td>{d.date}</td>
                <td>{String(d.amount)}</td>
                <td>{d.pulls}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </figcaption>
    </figure>
  );
}

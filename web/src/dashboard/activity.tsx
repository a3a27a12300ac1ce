// Events (GET /events, newest first) with each one's webhook deliveries on demand
// (GET /events/{id}/deliveries), and the webhook endpoints (GET /webhook-endpoints).
import { useEffect, useState } from 'preact/hooks';
import { api } from '../api/client.ts';
import { dateTime } from '../format.ts';

type Event = { id: string; type: string; created_at: string };
type Endpoint = { id: string; url: string; event_types: string[]; disabled_at: string | null };

export function Activity({ version }: { version: number }) {
  const [events, setEvents] = useState<Event[]>([]);
  const [endpoints, setEndpoints] = useState<Endpoint[]>([]);
  const [deliveries, setDeliveries] = useState<Record<string, string>>({});

  useEffect(() => {
    api.GET('/events', { params: { query: { limit: 15 } } }).then(({ data }) => data && setEvents(data.events));
    api.GET('/webhook-endpoints', {}).then(({ data }) => data && setEndpoints(data.webhook_endpoints as Endpoint[]));
  }, [version]);

  async function showDeliveries(id: string) {
    const { data } = await api.GET('/events/{id}/deliveries', { params: { path: { id } } });
    const text = data
      ? data.deliveries.length === 0
        ? 'not sent to any endpoint'
        : data.deliveries.map((d) => `${d.endpoint_id.slice(0, 8)}: ${d.status} (${d.attempts} attempts)`).join('; ')
      : 'could not be read';
    setDeliveries({ ...deliveries, [id]: text });
  }

  return (
    <div class="grid">
      <section class="card" aria-labelledby="events-title">
        <h2 id="events-title">Recent events</h2>
        {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable table must take keyboard focus (axe: scrollable-region-focusable) */}
        {/* biome-ignore lint/a11y/useSemanticElements: a div keeps the table's layout; the role names the scrollable region for screen readers */}
        <div class="scroll" tabIndex={0} role="region" aria-label="Scrollable table">
          <table>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Type</th>
                <th scope="col">Webhook deliveries</th>
              </tr>
            </thead>
            <tbody>
              {events.map((e) => (
                <tr key={e.id}>
                  <td>{dateTime(e.created_at)}</td>
                  <td>
                    <code>{e.type}</code>
                  </td>
                  <td>
                    {deliveries[e.id] ?? (
                      <button type="button" class="secondary" onClick={() => showDeliveries(e.id)}>
                        Show<span class="sr-only"> deliveries of {e.type}</span>
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
      <section class="card" aria-labelledby="hooks-title">
        <h2 id="hooks-title">Webhook endpoints</h2>
        {endpoints.length === 0 ? (
          <p>None. Add one with POST /webhook-endpoints (see /docs).</p>
        ) : (
          <ul>
            {endpoints.map((w) => (
              <li key={w.id}>
                <code>{w.url}</code> · {w.event_types.join(', ')}
                {w.disabled_at ? ' (disabled)' : ''}
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

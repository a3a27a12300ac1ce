// The outbox table. append writes the event and fans it out to the merchant's endpoints in one
// statement (a data-modifying CTE), so an event costs its transaction one round trip.
import type { EventFilter, EventsRepo, NewEvent, StoredEvent } from '../../billing/events/events-port.ts';
import type { Page, PageKey, PageRequest } from '../../billing/paging.ts';
import type { Queryable } from '../db.ts';
import { sortText } from './keyset.ts';

type EventRow = Omit<StoredEvent, 'data'> & { data_text: string; sort_at: string };

const COLUMNS = `id, type, created_at, merchant_id, actor, data::text AS data_text, object_id, ${sortText('created_at')} AS sort_at`;

/**
 * jsonb keeps numbers exactly, but JSON.parse would round an amount beyond 2^53; such numbers are
 * read back as their literal (JSON.rawJSON, which JSON.stringify writes verbatim).
 */
export function parseExactJson(text: string): unknown {
  return JSON.parse(text, function (this: unknown, _key: string, value: unknown, context?: { source?: string }) {
    if (typeof value === 'number' && context?.source !== undefined && String(value) !== context.source)
      return JSON.rawJSON(context.source);
    return value;
  } as never);
}

const toEvent = ({ data_text, sort_at: _s, ...row }: EventRow): StoredEvent => ({
  ...row,
  data: parseExactJson(data_text) as StoredEvent['data'],
});

/**
 * CTEs that write an event (`values`: a SELECT or VALUES of merchant_id, type, object_id, actor,
 * data) and then a pending delivery for each live, enabled endpoint of its merchant that listens to
 * its type ('*' = every type). Both inserts see the same snapshot: an endpoint created by a
 * transaction that has not committed yet is not there, and gets only later events. Also used inside
 * another write's statement (subscriptions-repo.ts), so that change and event are one statement.
 */
export const eventCtes = (values: string) => `
  event AS (
    INSERT INTO events (merchant_id, type, object_id, actor, data) ${values}
    RETURNING id, merchant_id, type
  ), fan AS (
    INSERT INTO webhook_deliveries (event_id, endpoint_id)
    SELECT event.id, w.id FROM event JOIN webhook_endpoints w
      ON w.merchant_id = event.merchant_id AND w.deleted_at IS NULL AND w.disabled_at IS NULL
     AND (event.type = ANY (w.event_types) OR '*' = ANY (w.event_types))
  )`;

const APPEND = `WITH ${eventCtes('VALUES ($1, $2, $3, $4::jsonb, $5::jsonb)')} SELECT count(*) FROM event`;

export function createEventsRepo(db: Queryable): EventsRepo {
  return {
    async append(e: NewEvent) {
      await db.query(
        APPEND,
        [e.merchant_id, e.type, e.object_id, JSON.stringify(e.actor), JSON.stringify(e.data)],
        'events_append',
      );
    },

    async findById(id: string) {
      const { rows } = await db.query<EventRow>(
        `SELECT ${COLUMNS} FROM events WHERE id = $1`,
        [id],
        'events_find_by_id',
      );
      return rows[0] ? toEvent(rows[0]) : null;
    },

    // Newest first: `(created_at, id) < cursor` in the indexes' own descending order, so each page
    // is one backward range scan of events_merchant[_type|_object]_idx (or events_created_idx).
    async list(filter: EventFilter, page: PageRequest): Promise<Page<StoredEvent>> {
      const where: string[] = [];
      const params: unknown[] = [];
      const add = (sql: string, value: unknown) => {
        params.push(value);
        where.push(sql.replace('?', `$${params.length}`));
      };
      if (filter.merchant_id) add('merchant_id = ?', filter.merchant_id);
      if (filter.type) add('type = ?', filter.type);
      if (filter.object_id) add('object_id = ?', filter.object_id);
      if (page.after) {
        params.push(page.after.at, page.after.id);
        where.push(`(created_at, id) < ($${params.length - 1}::timestamptz, $${params.length}::uuid)`);
      }
      params.push(page.limit + 1);
      const name = `events_list_${filter.merchant_id ? 'm' : ''}${filter.type ? 't' : ''}${filter.object_id ? 'o' : ''}${page.after ? 'a' : ''}`;
      const { rows } = await db.query<EventRow>(
        `SELECT ${COLUMNS} FROM events ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
          ORDER BY created_at DESC, id DESC LIMIT $${params.length}`,
        params,
        name,
      );
      const more = rows.length > page.limit;
      const kept = more ? rows.slice(0, page.limit) : rows;
      const last = kept[kept.length - 1];
      const next: PageKey | null = more ? { at: last.sort_at, id: last.id } : null;
      return { items: kept.map(toEvent), next };
    },
  };
}

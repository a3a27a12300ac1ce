// What the event verbs need from storage: the outbox table, the endpoints that receive events and
// the deliveries that carry them (storage/repos/events-repo.ts, webhooks-repo.ts).
import type { Page, PageRequest } from '../paging.ts';
import type { EventType } from './event-types.ts';

/** Who caused an event, as its `actor` field shows it. */
export type EventActor =
  | { type: 'api_key'; id: string }
  | { type: 'operator' }
  | { type: 'anonymous' }
  | { type: 'system'; job: string };

/** A JSON value ready to be written: amounts may be exact literals (JSON.rawJSON). */
export type JsonObject = Record<string, unknown>;

export interface StoredEvent {
  id: string;
  type: EventType;
  created_at: Date;
  merchant_id: string;
  actor: EventActor;
  data: { object: JsonObject };
  object_id: string;
}

export interface NewEvent {
  merchant_id: string;
  type: EventType;
  object_id: string;
  actor: EventActor;
  data: { object: JsonObject };
}

export interface EventFilter {
  /** Undefined only for the operator, who sees every merchant's events. */
  merchant_id?: string;
  type?: EventType;
  object_id?: string;
}

export interface EventsRepo {
  /**
   * Writes the event and, in the same statement, one pending delivery for each live, enabled
   * endpoint of the merchant that asked for its type: an endpoint registered later never receives
   * it, one registered earlier always does, whatever happens after the commit.
   */
  append(event: NewEvent): Promise<void>;
  findById(id: string): Promise<StoredEvent | null>;
  /** Newest first. */
  list(filter: EventFilter, page: PageRequest): Promise<Page<StoredEvent>>;
}

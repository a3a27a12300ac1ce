// The outbox's one door: every event is written by emitEvent, inside the transaction of the change
// it reports (the caller passes that transaction's repositories), so a change never commits
// without its event nor an event without its change. Adding an event is one line where the
// change happens: `await emit(tx, ctx.actor, { type: 'subscription.canceled', object: sub })`.
//
// `data.object` is the object as the API returns it. That shape belongs to the HTTP edge (its Zod
// schemas), so the composition root hands in the presenter; billing only says which object.
import type { Actor } from '../context.ts';
import type { ApiKey, Plan, StoredSigningKey, Subscription } from '../model.ts';
import type { Repos } from '../unit-of-work.ts';
import type { PullAttempt } from '../pulls/pulls-port.ts';
import type { EventType } from './event-types.ts';
import type { EventActor, EventsRepo, JsonObject, NewEvent } from './events-port.ts';

type Of<K extends EventType, O> = { type: K; object: O };

/** Each event type with the domain record its object is made from. */
export type BillingEvent =
  | Of<'plan.created', Plan>
  | Of<Extract<EventType, `subscription.${string}`>, Subscription>
  | Of<Extract<EventType, `pull.${string}`>, PullAttempt>
  | Of<'api_key.created' | 'api_key.revoked', ApiKey>
  | Of<'signing_key.set' | 'signing_key.removed', StoredSigningKey>;

/** The API's own JSON of each kind of object (schemas/events.ts). */
export interface EventPresenter {
  plan(p: Plan): JsonObject;
  subscription(s: Subscription): JsonObject;
  pull(p: PullAttempt): JsonObject;
  apiKey(k: ApiKey): JsonObject;
  signingKey(k: StoredSigningKey): JsonObject;
}

export type EmitEvent = (
  tx: Pick<Repos, 'events'> | { events: Pick<EventsRepo, 'append'> },
  actor: Actor,
  event: BillingEvent,
) => Promise<void>;

/** The row an event becomes, for a repository that writes it within its own statement. */
export type EventRow = (actor: Actor, event: BillingEvent) => NewEvent;

export function actorOf(actor: Actor): EventActor {
  switch (actor.kind) {
    case 'merchant':
      return { type: 'api_key', id: actor.keyId };
    case 'operator':
      return { type: 'operator' };
    case 'anonymous':
      return { type: 'anonymous' };
    case 'system':
      return { type: 'system', job: actor.job };
  }
}

function shapeOf(
  present: EventPresenter,
  e: BillingEvent,
): { merchant_id: string; object_id: string; object: JsonObject } {
  const [kind] = e.type.split('.');
  switch (kind) {
    case 'plan': {
      const p = e.object as Plan;
      return { merchant_id: p.merchant_id, object_id: p.id, object: present.plan(p) };
    }
    case 'subscription': {
      const s = e.object as Subscription;
      return { merchant_id: s.merchant_id, object_id: s.id, object: present.subscription(s) };
    }
    case 'pull': {
      const p = e.object as PullAttempt;
      return { merchant_id: p.merchant_id, object_id: p.id, object: present.pull(p) };
    }
    case 'api_key': {
      const k = e.object as ApiKey;
      return { merchant_id: k.merchant_id, object_id: k.id, object: present.apiKey(k) };
    }
    default: {
      // A signing key has no id of its own: one per merchant, so the merchant's id names it.
      const k = e.object as StoredSigningKey;
      return { merchant_id: k.merchant_id, object_id: k.merchant_id, object: present.signingKey(k) };
    }
  }
}

export function makeEventRow(present: EventPresenter): EventRow {
  return (actor, event) => {
    const { merchant_id, object_id, object } = shapeOf(present, event);
    return { merchant_id, type: event.type, object_id, actor: actorOf(actor), data: { object } };
  };
}

export function makeEmitEvent(row: EventRow): EmitEvent {
  return async (tx, actor, event) => {
    await tx.events.append(row(actor, event));
  };
}

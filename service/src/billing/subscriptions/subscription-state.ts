// Cancel, pause and resume: one verb each, all moves through the status table
// (status-machine.ts), applied with a conditional UPDATE on the status read, so two requests
// racing on one subscription cannot both act on a stale status.
import { mustSee } from '../access/scope.ts';
import type { Ctx } from '../context.ts';
import { BillingError, notFound } from '../errors.ts';
import type { Subscription } from '../model.ts';
import type { EmitEvent } from '../events/emit-event.ts';
import type { Clock } from '../clock.ts';
import type { SubscriptionsRepo } from './subscriptions-port.ts';
import type { UnitOfWork } from '../unit-of-work.ts';
import { next, type SubscriptionStatus } from './status-machine.ts';

type Deps = { uow: UnitOfWork; subscriptions: Pick<SubscriptionsRepo, 'findById'>; clock: Clock; emit: EmitEvent };

/** The event of each status these verbs move a subscription to (with the actor who asked). */
const EVENT_OF = { canceled: 'subscription.canceled', paused: 'subscription.paused' } as const;

export const canceledError = () =>
  new BillingError('CONFLICT', 'Subscription is canceled', { code: 'subscription_canceled' });
export const pausedError = () =>
  new BillingError('CONFLICT', 'Subscription is paused', { code: 'subscription_paused' });

/** A write lost to a concurrent change is read again and decided again, a few times at most. */
const ATTEMPTS = 3;

async function change(
  deps: Deps,
  ctx: Ctx,
  id: string,
  decide: (s: Subscription, now: Date) => Parameters<SubscriptionsRepo['setState']>[2] | 'unchanged',
): Promise<Subscription> {
  for (let i = 0; i < ATTEMPTS; i++) {
    const s = await deps.subscriptions.findById(id);
    if (!s) throw notFound('Subscription');
    mustSee(ctx, s.merchant_id, 'Subscription');
    const now = deps.clock.now();
    const patch = decide(s, now);
    if (patch === 'unchanged') return s;
    const updated = await deps.uow.run(async (tx) => {
      const row = await tx.subscriptions.setState(id, s.status, patch, now);
      if (row && row.status !== s.status) {
        const type = s.status === 'paused' ? 'subscription.resumed' : EVENT_OF[row.status as keyof typeof EVENT_OF];
        if (type) await deps.emit(tx, ctx.actor, { type, object: row });
      }
      return row;
    });
    if (updated) return updated;
  }
  throw new BillingError('CONFLICT', 'The subscription changed while this request ran: try again', {
    code: 'subscription_busy',
  });
}

export function makeCancelSubscription(deps: Deps) {
  return ({ ctx, input }: { ctx: Ctx; input: { id: string; at_period_end?: boolean } }) =>
    change(deps, ctx, input.id, (s, now) => {
      if (s.status === 'canceled') throw canceledError();
      // At period end: the subscription stays as it is and is canceled at its next billing date
      // (the end of the period already paid for); nothing is collected for the next period.
      if (input.at_period_end) return { status: s.status, cancel_at: s.next_billing_date };
      return { status: next(s.status, { kind: 'cancel' })!, canceled_at: now, cancel_at: null };
    });
}

export function makePauseSubscription(deps: Deps) {
  return ({ ctx, input }: { ctx: Ctx; input: { id: string } }) =>
    change(deps, ctx, input.id, (s) => {
      if (s.status === 'canceled') throw canceledError();
      if (s.status === 'paused') return 'unchanged';
      return { status: next(s.status, { kind: 'pause' })!, paused_from: s.status };
    });
}

export function makeResumeSubscription(deps: Deps) {
  return ({ ctx, input }: { ctx: Ctx; input: { id: string } }) =>
    change(deps, ctx, input.id, (s) => {
      if (s.status === 'canceled') throw canceledError();
      if (s.status !== 'paused') return 'unchanged';
      // The date is kept: at most one cycle is ever due at once, paused cycles are not collected later.
      return { status: next(s.status, { kind: 'resume', held: s.paused_from ?? 'active' })!, paused_from: null };
    });
}

/**
 * A cancel at period end whose instant has come, applied by whoever meets it first (the collector
 * on time, or a /trigger-pull): the subscription is canceled, with its event. Returns the status
 * after (unchanged when nothing was due).
 */
export async function applyDueCancel(
  deps: { uow: UnitOfWork; emit: EmitEvent },
  s: { id: string; status: SubscriptionStatus; cancelAt: Date | null },
  now: Date,
  actor: Ctx['actor'],
): Promise<SubscriptionStatus> {
  if (s.status === 'canceled' || !s.cancelAt || s.cancelAt.getTime() > now.getTime()) return s.status;
  const row = await deps.uow.run(async (tx) => {
    const done = await tx.subscriptions.setState(
      s.id,
      s.status,
      { status: next(s.status, { kind: 'cancel' })!, canceled_at: now, cancel_at: null },
      now,
    );
    if (done) await deps.emit(tx, actor, { type: 'subscription.canceled', object: done });
    return done;
  });
  return row?.status ?? 'canceled';
}

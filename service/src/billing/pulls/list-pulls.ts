// GET /subscriptions/{id}/pulls: every attempt, newest first, so a merchant can see what was
// sent, what landed and what was never included.
import type { Ctx } from '../context.ts';
import { notFound } from '../errors.ts';
import type { SubscriptionsRepo } from '../ports.ts';
import type { PullAttempt, PullsRepo } from './pulls-port.ts';

const HISTORY_LIMIT = 500;

export function makeListPulls(deps: { subscriptions: Pick<SubscriptionsRepo, 'findById'>; pulls: Pick<PullsRepo, 'listForSubscription'> }) {
  return async function listPulls({ input }: { ctx: Ctx; input: { id: string } }): Promise<PullAttempt[]> {
    if (!(await deps.subscriptions.findById(input.id))) throw notFound('Subscription');
    return deps.pulls.listForSubscription(input.id, HISTORY_LIMIT);
  };
}

// POST /checkout/{plan_id}/subscriptions: what the hosted checkout calls once the subscriber's
// approve and create_vault are on chain. No key in either mode (product.md); a key that is sent
// still scopes it. The verb checks the ledger before it writes.
import type { RoutesPlugin } from '../route-plugin.ts';
import { ctxOf } from '../context.ts';
import {
  CheckoutParams,
  CheckoutSubscriptionBody,
  WalletSubscriptionsBody,
  walletSubscriptionJson,
  walletSubscriptionsResponses,
} from '../../schemas/checkout.ts';
import { subscriptionJson, subscriptionResponses } from '../../schemas/subscriptions.ts';

export const checkoutRoutes: RoutesPlugin = async (app, { deps }) => {
  const { checkoutSubscription, listWalletSubscriptions } = deps.checkoutVerbs;

  app.post<{ Params: CheckoutParams; Body: CheckoutSubscriptionBody }>(
    '/checkout/:plan_id/subscriptions',
    {
      schema: { params: CheckoutParams, body: CheckoutSubscriptionBody, response: subscriptionResponses.create },
      config: { access: 'public' },
    },
    async (request, reply) => {
      const input = { plan_id: request.params.plan_id, ...request.body };
      const subscription = await checkoutSubscription({ ctx: ctxOf(request), input });
      return reply.code(201).send({ message: 'Subscription created', subscription: subscriptionJson(subscription) });
    },
  );

  // A subscriber's own subscriptions (/manage), for whoever holds the wallet: no key, a signature.
  // POST because the proof travels in the body, never in a URL or a log line.
  app.post<{ Body: WalletSubscriptionsBody }>(
    '/subscriber/subscriptions',
    { schema: { body: WalletSubscriptionsBody, response: walletSubscriptionsResponses }, config: { access: 'public' } },
    async (request) => {
      const list = await listWalletSubscriptions({ ctx: ctxOf(request), input: request.body });
      return { subscriptions: list.map(walletSubscriptionJson) };
    },
  );
};

// POST /checkout/{plan_id}/subscriptions: the hosted checkout's keyless subscription (product.md).
import { z } from 'zod';
import { jsonBody, stellarAccount, uuidField } from './common.ts';

export const CheckoutParams = z.object({ plan_id: uuidField('plan_id parameter') });
export type CheckoutParams = z.infer<typeof CheckoutParams>;

export const CheckoutSubscriptionBody = jsonBody({ customer_wallet_address: stellarAccount });
export type CheckoutSubscriptionBody = z.infer<typeof CheckoutSubscriptionBody>;

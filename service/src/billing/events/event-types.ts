// The event types, as product.md names them: more may be added, none renamed. Each type names the
// kind of object its `data.object` holds, which is the object as the API returns it.
export const EVENT_OBJECT_KINDS = {
  'plan.created': 'plan',
  'subscription.created': 'subscription',
  'subscription.past_due': 'subscription',
  'subscription.reactivated': 'subscription',
  'subscription.unpaid': 'subscription',
  'subscription.canceled': 'subscription',
  'subscription.paused': 'subscription',
  'subscription.resumed': 'subscription',
  'subscription.allowance_expiring': 'subscription',
  'subscription.allowance_insufficient': 'subscription',
  'subscription.balance_low': 'subscription',
  'pull.pending': 'pull',
  'pull.succeeded': 'pull',
  'pull.failed': 'pull',
  'api_key.created': 'api_key',
  'api_key.revoked': 'api_key',
  'signing_key.set': 'signing_key',
  'signing_key.removed': 'signing_key',
} as const;

export type EventType = keyof typeof EVENT_OBJECT_KINDS;
export type EventObjectKind = (typeof EVENT_OBJECT_KINDS)[EventType];
export const EVENT_TYPES = Object.keys(EVENT_OBJECT_KINDS) as EventType[];

/** When each type is emitted: the OpenAPI document and the README say the same. */
export const EVENT_TRIGGERS: Record<EventType, string> = {
  'plan.created': 'POST /plans created a plan',
  'subscription.created': 'POST /subscriptions recorded a subscriber',
  'subscription.past_due': 'a pull failed on-chain and the subscription became past_due',
  'subscription.reactivated': 'a confirmed pull made a past_due (or unpaid) subscription active again',
  'subscription.unpaid': 'automatic collection gave up and applied final_status unpaid',
  'subscription.canceled': 'the subscription was canceled (by request, at period end, or by dunning)',
  'subscription.paused': 'POST /subscriptions/{id}/pause',
  'subscription.resumed': 'POST /subscriptions/{id}/resume',
  'subscription.allowance_expiring': "the subscriber's allowance expires within WARNING_LEAD_SECONDS",
  'subscription.allowance_insufficient': "the subscriber's allowance no longer covers the next cycle",
  'subscription.balance_low': "the subscriber's balance no longer covers the next cycle",
  'pull.pending': 'a pull attempt was signed and recorded, before it is sent',
  'pull.succeeded': 'a pull attempt was confirmed on-chain',
  'pull.failed':
    'a pull attempt ended without collecting: failed on-chain, refused at submission (rejected) or never included (expired)',
  'api_key.created':
    'an API key was issued (POST /merchants gives the first, POST /merchants/{id}/api-keys the others)',
  'api_key.revoked': 'DELETE /merchants/{id}/api-keys/{key_id}',
  'signing_key.set': 'PUT /merchants/{id}/signing-key',
  'signing_key.removed': 'DELETE /merchants/{id}/signing-key',
};

/** Types emitted today; the rest arrive with automatic collection (statuses unpaid, paused, canceled, health warnings). */
export const EMITTED_TODAY: EventType[] = [
  'plan.created',
  'subscription.created',
  'subscription.past_due',
  'subscription.reactivated',
  'pull.pending',
  'pull.succeeded',
  'pull.failed',
  'api_key.created',
  'api_key.revoked',
  'signing_key.set',
  'signing_key.removed',
];

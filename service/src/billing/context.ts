// Who is acting and for which request. Verbs take it first: it decides which merchant's objects
// the request may see (billing/access/scope.ts), and a log line or an audit row can name it.
//   anonymous  no key (open mode only): the spec's flows, unscoped;
//   operator   ADMIN_API_KEY: everything;
//   merchant   one merchant's API key: that merchant's objects only;
//   system     work nobody asked for over HTTP (CLI, reconciler): everything.

export type Actor =
  | { kind: 'anonymous' }
  | { kind: 'operator' }
  | { kind: 'merchant'; merchantId: string; keyId: string }
  | { kind: 'system'; job: string };

/** What a verb knows of its caller. The request id stays in HTTP's logs; no verb needs it. */
export interface Ctx {
  actor: Actor;
}

export const ANONYMOUS: Actor = { kind: 'anonymous' };
export const OPERATOR: Actor = { kind: 'operator' };

export const systemCtx = (job: string): Ctx => ({ actor: { kind: 'system', job } });

// What each route asks of its caller, and the one function that enforces it. Every route declares
// an Access (http/auth.ts refuses to register a route without one); which objects the caller then
// sees is the verbs' business (scope.ts).
import type { Actor } from '../context.ts';
import { BillingError } from '../errors.ts';

export type AuthMode = 'open' | 'keys';

export const ACCESS = {
  /** No key in either mode (the checkout's plan read); a key that is sent is still checked and scopes. */
  public: { key: 'never', operatorOnly: false },
  /** A key in keys mode; open mode also serves requests without one (the spec's flows as written). */
  merchant: { key: 'keys-mode', operatorOnly: false },
  /** Like merchant, but a merchant key gets 403: creating and listing merchants. */
  operator: { key: 'keys-mode', operatorOnly: true },
  /** A key in both modes, operator or merchant: routes that handle credentials (API keys, signing keys). */
  credential: { key: 'always', operatorOnly: false },
  /** The operator key in both modes: /metrics when METRICS_AUTH=operator. */
  'operator-key': { key: 'always', operatorOnly: true },
} as const;

export type Access = keyof typeof ACCESS;

export const apiKeyRequired = () =>
  new BillingError('API_KEY_REQUIRED', 'An API key is required: send Authorization: Bearer <key>', {
    code: 'api_key_required',
  });
export const apiKeyInvalid = (why = 'The API key is unknown or revoked') =>
  new BillingError('API_KEY_INVALID', why, { code: 'api_key_invalid' });
export const operatorOnly = () =>
  new BillingError('OPERATOR_ONLY', 'Only the operator key may do this', { code: 'operator_only' });

/** Whether a request without a key is refused on a route of this access. */
export function keyRequired(access: Access, mode: AuthMode): boolean {
  const { key } = ACCESS[access];
  return key === 'always' || (key === 'keys-mode' && mode === 'keys');
}

export function authorize(actor: Actor, access: Access, mode: AuthMode): void {
  if (actor.kind === 'anonymous') {
    if (keyRequired(access, mode)) throw apiKeyRequired();
    return;
  }
  if (ACCESS[access].operatorOnly && actor.kind === 'merchant') throw operatorOnly();
}

// Where a webhook endpoint's signing secret is sealed and opened. Like a stored signing key: under
// SIGNING_KEY_ENCRYPTION_KEY, bound to the endpoint's id (a ciphertext copied onto another endpoint
// does not open), never stored in plain; without the variable the store refuses with its own text.
import { BillingError } from '../errors.ts';
import type { Sealed, SecretBox } from '../signing-keys/signing-keys-port.ts';

export const WEBHOOK_SECRETS_NOT_CONFIGURED =
  'Webhook secrets cannot be stored: SIGNING_KEY_ENCRYPTION_KEY is not set on the server';

const context = (endpointId: string) => `webhook-secret:${endpointId}`;

export function sealEndpointSecret(
  box: Pick<SecretBox, 'seal' | 'primaryKekId'>,
  endpointId: string,
  secret: string,
): Sealed {
  if (box.primaryKekId === undefined) throw new BillingError('SIGNING_KEY_STORE', WEBHOOK_SECRETS_NOT_CONFIGURED);
  return box.seal(secret, context(endpointId));
}

export const openEndpointSecret = (box: Pick<SecretBox, 'open'>, endpointId: string, sealed: Sealed): string =>
  box.open(sealed, context(endpointId));

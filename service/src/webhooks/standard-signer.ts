// Standard Webhooks signatures through the `standardwebhooks` library, so that any receiver's
// Standard Webhooks library verifies them: webhook-id (the event id, the same on every retry),
// webhook-timestamp (seconds), webhook-signature ("v1,<base64 HMAC-SHA256>", space-separated, one
// per secret: during a rotation's overlap both the new and the previous secret sign).
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import type { WebhookSigner } from '../billing/webhooks/webhooks-port.ts';

/** 32 random bytes, base64, with the prefix the Standard Webhooks libraries expect. */
const SECRET_BYTES = 32;

export const standardSigner: WebhookSigner = {
  newSecret: () => `whsec_${randomBytes(SECRET_BYTES).toString('base64')}`,
  headers({ id, timestamp, body, secrets }) {
    const signatures = secrets.map((s) => new Webhook(s).sign(id, timestamp, body));
    return {
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
      'webhook-signature': signatures.join(' '),
    };
  },
};

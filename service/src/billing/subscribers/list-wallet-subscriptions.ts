// POST /subscriber/subscriptions (for /manage): a subscriber sees its subscriptions with this
// service's merchants without an account, by signing a short message with its wallet. The message
// names the wallet and the time it was signed; a signature older than SIGNED_MESSAGE_SECONDS (or
// from the future by as much) is refused, so a captured one is useless after a few minutes. It
// only reads: the actions of /manage (renew, stop paying) are the subscriber's own transactions.
import type { Ctx } from '../context.ts';
import { BillingError } from '../errors.ts';
import type { Clock } from '../clock.ts';
import type { WalletSignatures, WalletSubscription, WalletSubscriptionsRepo } from './wallet-subscriptions-port.ts';

export const SIGNED_MESSAGE_SECONDS = 300;

/** The text the wallet signs; the page builds the same (web/src/pages/manage.tsx). */
export const manageMessage = (wallet: string, at: string) => `Show my subscriptions\nwallet: ${wallet}\nat: ${at}`;

const invalid = (field: string, reason: string) =>
  new BillingError('VALIDATION', `Invalid input on ${field}: ${reason}`);

export function makeListWalletSubscriptions(deps: {
  walletSubscriptions: WalletSubscriptionsRepo;
  signatures: WalletSignatures;
  clock: Clock;
}) {
  return async function listWalletSubscriptions({
    input,
  }: {
    ctx: Ctx;
    input: { wallet: string; signed_at: string; signature: string };
  }): Promise<WalletSubscription[]> {
    const at = Date.parse(input.signed_at);
    if (Number.isNaN(at)) throw invalid('signed_at', 'signed_at must be an ISO 8601 date-time');
    if (Math.abs(deps.clock.now().getTime() - at) > SIGNED_MESSAGE_SECONDS * 1000)
      throw invalid('signed_at', `the message must be signed within ${SIGNED_MESSAGE_SECONDS} seconds of the request`);
    if (!deps.signatures.verify(input.wallet, manageMessage(input.wallet, input.signed_at), input.signature))
      throw invalid('signature', "signature is not the wallet's signature of the message");
    return deps.walletSubscriptions.listForWallet(input.wallet);
  };
}

// What /manage needs: a wallet's subscriptions with their plans and merchants
// (storage/repos/wallet-subscriptions-repo.ts), and proof that the caller holds the wallet
// (chain/wallet-signature.ts: a SEP-53 signed message, as Freighter's signMessage makes).
import type { SubscriptionStatus } from '../model.ts';

export interface WalletSubscription {
  id: string;
  plan_id: string;
  customer_wallet_address: string;
  status: SubscriptionStatus;
  next_billing_date: Date;
  plan_name: string;
  token_amount: string;
  interval_seconds: number;
  token_contract_id: string | null;
  merchant_name: string;
  merchant_wallet_address: string;
}

export interface WalletSubscriptionsRepo {
  /** Every subscription of the wallet with a merchant that is not deleted, oldest first. */
  listForWallet(wallet: string): Promise<WalletSubscription[]>;
}

export interface WalletSignatures {
  /** Whether `signature` (base64) is the wallet's SEP-53 signature of `message`. */
  verify(wallet: string, message: string, signature: string): boolean;
}

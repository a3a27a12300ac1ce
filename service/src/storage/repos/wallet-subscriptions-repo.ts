// A subscriber's subscriptions across merchants, for /manage. The unique constraint
// subscriptions_customer_wallet_address_plan_id_key (wallet first) is the index this reads.
import type {
  WalletSubscription,
  WalletSubscriptionsRepo,
} from '../../billing/subscribers/wallet-subscriptions-port.ts';
import type { Queryable } from '../db.ts';

export function createWalletSubscriptionsRepo(db: Queryable): WalletSubscriptionsRepo {
  return {
    async listForWallet(wallet: string): Promise<WalletSubscription[]> {
      const { rows } = await db.query<WalletSubscription>(
        `SELECT s.id, s.plan_id, s.customer_wallet_address, s.status, s.next_billing_date,
                p.name AS plan_name, p.token_amount::text AS token_amount, p.interval_seconds, p.token_contract_id,
                m.name AS merchant_name, m.wallet_address AS merchant_wallet_address
           FROM subscriptions s
           JOIN plans p ON p.id = s.plan_id
           JOIN merchants m ON m.id = p.merchant_id
          WHERE s.customer_wallet_address = $1 AND m.deleted_at IS NULL
          ORDER BY s.created_at, s.id`,
        [wallet],
        'wallet_subscriptions_list',
      );
      return rows;
    },
  };
}

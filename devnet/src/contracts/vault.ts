// The subscription vault, behaving as the deployed Rust contract does: panics (not
// contract errors) for bad input, a missing vault and an early pull, so callers see
// only Error(WasmVm, InvalidAction), exactly as on testnet.
import { xdr } from '@stellar/stellar-sdk';
import type { Contract } from '../host/contract.ts';
import { addr, i128, sym, u64, vec } from '../host/scval.ts';
import { decodeArgs, unknownFunction } from './args.ts';
import { decodeVaultData, encodeVaultData, vaultKey } from './vault-layout.ts';

export const subscriptionVault: Contract = {
  call(env, fn, args) {
    switch (fn) {
      case 'create_vault': {
        const [user, merchant, token, amount, interval] = decodeArgs(env, args, [
          'address', 'address', 'address', 'i128', 'u64',
        ]);
        env.requireAuth(user);
        if (amount <= 0n) env.panic('amount_per_interval must be positive');
        if (interval === 0n) env.panic('interval_seconds must be greater than zero');
        const data = { token, amountPerInterval: amount, intervalSeconds: interval, lastPullTimestamp: 0n };
        env.setData(vaultKey(user, merchant), encodeVaultData(data), 'persistent');
        return xdr.ScVal.scvVoid();
      }
      case 'get_vault': {
        const [user, merchant] = decodeArgs(env, args, ['address', 'address']);
        return env.getData(vaultKey(user, merchant), 'persistent') ?? xdr.ScVal.scvVoid();
      }
      case 'pull_funds': {
        const [user, merchant] = decodeArgs(env, args, ['address', 'address']);
        env.requireAuth(merchant);
        const raw = env.getData(vaultKey(user, merchant), 'persistent');
        if (!raw) return env.panic('Vault does not exist');
        const vault = decodeVaultData(raw);
        const now = env.ledgerTimestamp();
        // The first pull (last_pull_timestamp == 0) is allowed at once.
        if (vault.lastPullTimestamp !== 0n && now < vault.lastPullTimestamp + vault.intervalSeconds) {
          env.panic('Too early to pull funds');
        }
        env.call(vault.token, 'transfer_from', [
          addr(env.contract), addr(user), addr(merchant), i128(vault.amountPerInterval),
        ]);
        env.setData(vaultKey(user, merchant), encodeVaultData({ ...vault, lastPullTimestamp: now }), 'persistent');
        env.emit([sym('funds_pulled'), addr(user), addr(merchant)], vec([i128(vault.amountPerInterval), u64(now)]));
        return xdr.ScVal.scvVoid();
      }
      default:
        return unknownFunction();
    }
  },
};

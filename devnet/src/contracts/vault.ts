// The subscription vault (Orbit-xyz/Orbit contracts/soroban/src/lib.rs), behaving as the Rust
// contract does: panics (not contract errors) for bad input, a missing vault and an early pull,
// so callers see only Error(WasmVm, InvalidAction), exactly as on testnet.
//
// Two builds:
// - 'deployed' (default): the deployed contract — create_vault, get_vault, pull_funds (with its
//   `funds_pulled` event); no cancel entry point, no events on create, no TTL extension.
// - 'extended': the build Orbit's README roadmap plans ("Contract events", "`cancel_vault`
//   entrypoint and TTL extension for vault entries"), as lib.rs has it at commit
//   89232c1f970b62d0dbbf871863411d8899aaa294: `vault_created` [vault_created, user, merchant]
//   data (token, amount_per_interval, interval_seconds); `cancel_vault(user, merchant)` — user
//   auth, "Vault does not exist" panic, entry removed, `vault_cancelled` [vault_cancelled, user,
//   merchant] data void; after create and after each pull, `calculate_ttl_params` extends the
//   vault entry and the contract instance (and its code).
import { xdr } from '@stellar/stellar-sdk';
import type { Contract, Env } from '../host/contract.ts';
import { addr, i128, sym, u64, vec } from '../host/scval.ts';
import { decodeArgs, unknownFunction } from './args.ts';
import { decodeVaultData, encodeVaultData, vaultKey } from './vault-layout.ts';

export type VaultBuild = 'deployed' | 'extended';
export const VAULT_BUILDS: readonly VaultBuild[] = ['deployed', 'extended'];

// lib.rs @89232c1f: CONSTANTS: STATE ARCHIVAL & TTL MANAGEMENT
const SECONDS_PER_LEDGER = 5n;
const TTL_MARGIN_LEDGERS = 120_960;
const MIN_TTL_LEDGERS = 518_400;
const TTL_THRESHOLD_LEDGERS = 120_960;
const U32_MAX = 0xffff_ffff;

/**
 * lib.rs `calculate_ttl_params`: extend_to = max(interval in ledgers + 7 days, 30 days),
 * threshold = min(7 days, extend_to − 1). (`as u32` truncates; saturating_add caps at u32::MAX.)
 */
export function calculateTtlParams(intervalSeconds: bigint): { threshold: number; extendTo: number } {
  const intervalLedgers = Number(BigInt.asUintN(32, intervalSeconds / SECONDS_PER_LEDGER));
  const extendTo = Math.max(Math.min(intervalLedgers + TTL_MARGIN_LEDGERS, U32_MAX), MIN_TTL_LEDGERS);
  return { threshold: Math.min(TTL_THRESHOLD_LEDGERS, extendTo - 1), extendTo };
}

function extendVault(env: Env, key: xdr.ScVal, intervalSeconds: bigint): void {
  const { threshold, extendTo } = calculateTtlParams(intervalSeconds);
  env.extendTtl(key, 'persistent', threshold, extendTo);
  env.extendInstanceTtl(threshold, extendTo);
}

export function subscriptionVault(build: VaultBuild = 'deployed'): Contract {
  const extended = build === 'extended';
  return {
    call(env, fn, args) {
      switch (fn) {
        case 'create_vault': {
          const [user, merchant, token, amount, interval] = decodeArgs(env, args, [
            'address',
            'address',
            'address',
            'i128',
            'u64',
          ]);
          env.requireAuth(user);
          if (amount <= 0n) env.panic('amount_per_interval must be positive');
          if (interval === 0n) env.panic('interval_seconds must be greater than zero');
          const data = { token, amountPerInterval: amount, intervalSeconds: interval, lastPullTimestamp: 0n };
          const key = vaultKey(user, merchant);
          env.setData(key, encodeVaultData(data), 'persistent');
          if (extended) {
            env.emit(
              [sym('vault_created'), addr(user), addr(merchant)],
              vec([addr(token), i128(amount), u64(interval)]),
            );
            extendVault(env, key, interval);
          }
          return xdr.ScVal.scvVoid();
        }
        case 'get_vault': {
          const [user, merchant] = decodeArgs(env, args, ['address', 'address']);
          return env.getData(vaultKey(user, merchant), 'persistent') ?? xdr.ScVal.scvVoid();
        }
        case 'cancel_vault': {
          if (!extended) return unknownFunction();
          const [user, merchant] = decodeArgs(env, args, ['address', 'address']);
          env.requireAuth(user);
          const key = vaultKey(user, merchant);
          if (!env.getData(key, 'persistent')) env.panic('Vault does not exist');
          env.removeData(key, 'persistent');
          env.emit([sym('vault_cancelled'), addr(user), addr(merchant)], xdr.ScVal.scvVoid());
          return xdr.ScVal.scvVoid();
        }
        case 'pull_funds': {
          const [user, merchant] = decodeArgs(env, args, ['address', 'address']);
          env.requireAuth(merchant);
          const key = vaultKey(user, merchant);
          const raw = env.getData(key, 'persistent');
          if (!raw) return env.panic('Vault does not exist');
          const vault = decodeVaultData(raw);
          const now = env.ledgerTimestamp();
          // The first pull (last_pull_timestamp == 0) is allowed at once.
          if (vault.lastPullTimestamp !== 0n && now < vault.lastPullTimestamp + vault.intervalSeconds) {
            env.panic('Too early to pull funds');
          }
          env.call(vault.token, 'transfer_from', [
            addr(env.contract),
            addr(user),
            addr(merchant),
            i128(vault.amountPerInterval),
          ]);
          env.setData(key, encodeVaultData({ ...vault, lastPullTimestamp: now }), 'persistent');
          env.emit([sym('funds_pulled'), addr(user), addr(merchant)], vec([i128(vault.amountPerInterval), u64(now)]));
          if (extended) extendVault(env, key, vault.intervalSeconds);
          return xdr.ScVal.scvVoid();
        }
        default:
          return unknownFunction();
      }
    },
  };
}

// Vault fixtures: a subscriber with tokens and an allowance, and a vault to a merchant.
import type { Keypair } from '@stellar/stellar-sdk';
import { addr, control, i128, invokeOk, u32, u64, type Ctx } from './devnet.ts';

export type VaultSetup = { amount: bigint; interval: bigint };

export async function fundAndApprove(ctx: Ctx, user: Keypair, balance: bigint, allowance: bigint, ledgers = 1000) {
  const { vault, token } = ctx.devnet.contracts;
  if (balance > 0n) await control(ctx, 'mint', { to: user.publicKey(), amount: balance.toString() });
  const latest = await ctx.server.getLatestLedger();
  await invokeOk(ctx, user, token, 'approve', [
    addr(user.publicKey()),
    addr(vault),
    i128(allowance),
    u32(latest.sequence + ledgers),
  ]);
}

export async function createVault(ctx: Ctx, user: Keypair, merchant: Keypair, setup: VaultSetup) {
  const { vault, token } = ctx.devnet.contracts;
  return invokeOk(ctx, user, vault, 'create_vault', [
    addr(user.publicKey()),
    addr(merchant.publicKey()),
    addr(token),
    i128(setup.amount),
    u64(setup.interval),
  ]);
}

export const pullArgs = (user: Keypair, merchant: Keypair) => [addr(user.publicKey()), addr(merchant.publicKey())];

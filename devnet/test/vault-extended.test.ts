// The vault's extended build (startDevnet({vaultBuild: 'extended'}), --vault-build extended): Orbit's
// planned cancel_vault, vault_created / vault_cancelled events and TTL extension of the vault entry,
// as Orbit-xyz/Orbit contracts/soroban/src/lib.rs has them at 89232c1f. The default build has none.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Keypair, rpc, scValToNative, xdr } from '@stellar/stellar-sdk';
import { startDevnet } from '../src/index.ts';
import { calculateTtlParams } from '../src/contracts/vault.ts';
import {
  addr,
  buildCall,
  invokeOk,
  kp,
  prepareAndSign,
  sendAndClose,
  startTestDevnet,
  view,
  type Ctx,
} from './support/devnet.ts';
import { createVault, fundAndApprove, pullArgs } from './support/vault.ts';

let ctx: Ctx;
let deployed: Ctx;
beforeAll(async () => {
  const devnet = await startDevnet({ port: 0, ledgerMs: 0, accounts: 6, vaultBuild: 'extended' });
  ctx = { devnet, server: new rpc.Server(devnet.rpcUrl, { allowHttp: true }) };
  deployed = await startTestDevnet(3);
});
afterAll(() => Promise.all([ctx.devnet.close(), deployed.devnet.close()]));

const sym = (s: string) => xdr.ScVal.scvSymbol(s).toXdr('base64');
const address = (a: string) => addr(a).toXdr('base64');

/** The vault entry's TTL, as getLedgerEntries serves it. */
async function vaultLiveUntil(c: Ctx, user: Keypair, merchant: Keypair): Promise<number | undefined> {
  const key = xdr.ScVal.scvMap([
    new xdr.ScMapEntry({ key: xdr.ScVal.scvSymbol('merchant'), val: addr(merchant.publicKey()) }),
    new xdr.ScMapEntry({ key: xdr.ScVal.scvSymbol('user'), val: addr(user.publicKey()) }),
  ]);
  try {
    return (await c.server.getContractData(c.devnet.contracts.vault, key, rpc.Durability.Persistent))
      .liveUntilLedgerSeq;
  } catch {
    return undefined;
  }
}

async function simError(c: Ctx, source: Keypair, fn: string, args: xdr.ScVal[]) {
  const sim = await c.server.simulateTransaction(await buildCall(c, source, c.devnet.contracts.vault, fn, args));
  if (!rpc.Api.isSimulationError(sim)) throw new Error(`${fn} simulated successfully`);
  return sim.error.split('\n')[0];
}

describe('calculate_ttl_params (lib.rs @89232c1f)', () => {
  it('extends to max(interval ledgers + 7 days, 30 days), threshold min(7 days, extend_to − 1)', () => {
    expect(calculateTtlParams(60n)).toEqual({ threshold: 120_960, extendTo: 518_400 });
    // 30-day interval: 518,400 + 120,960 — the 639,360 of Orbit's TTL test snapshot.
    expect(calculateTtlParams(2_592_000n)).toEqual({ threshold: 120_960, extendTo: 639_360 });
  });
});

describe('extended build', () => {
  it('create_vault emits vault_created and extends the vault entry to 30 days', async () => {
    const [user, merchant] = [kp(ctx, 0), kp(ctx, 1)];
    const { vault, token } = ctx.devnet.contracts;
    await fundAndApprove(ctx, user, 1000n, 1000n);
    const res = await createVault(ctx, user, merchant, { amount: 100n, interval: 60n });
    const events = res.events.contractEventsXdr[0].map((e) => [
      ...e.body.v0.topics.map(scValToNative),
      scValToNative(e.body.v0.data),
    ]);
    expect(events).toEqual([['vault_created', user.publicKey(), merchant.publicKey(), [token, 100n, 60n]]]);
    expect(await vaultLiveUntil(ctx, user, merchant)).toBe(res.ledger + 518_400);
    const found = await ctx.server.getEvents({
      startLedger: 1,
      filters: [
        {
          type: 'contract',
          contractIds: [vault],
          topics: [[sym('vault_created'), address(user.publicKey()), address(merchant.publicKey())]],
        },
      ],
    });
    expect(found.events).toHaveLength(1);
  });

  it('pull_funds still pulls; the entry keeps its TTL while above the 7-day threshold', async () => {
    const [user, merchant] = [kp(ctx, 0), kp(ctx, 1)];
    const before = await vaultLiveUntil(ctx, user, merchant);
    const res = await invokeOk(ctx, merchant, ctx.devnet.contracts.vault, 'pull_funds', pullArgs(user, merchant));
    const names = res.events.contractEventsXdr[0].map((e) => scValToNative(e.body.v0.topics[0]));
    expect(names).toEqual(['transfer', 'funds_pulled']);
    expect(await vaultLiveUntil(ctx, user, merchant)).toBe(before);
  });

  it('cancel_vault (user auth) removes the vault and emits [vault_cancelled, user, merchant] with no data', async () => {
    const [user, merchant] = [kp(ctx, 0), kp(ctx, 1)];
    const { vault } = ctx.devnet.contracts;
    const res = await invokeOk(ctx, user, vault, 'cancel_vault', pullArgs(user, merchant));
    expect(res.events.contractEventsXdr[0].map((e) => e.body.v0.topics.map(scValToNative))).toEqual([
      ['vault_cancelled', user.publicKey(), merchant.publicKey()],
    ]);
    expect(res.events.contractEventsXdr[0][0].body.v0.data.type).toBe('scvVoid');
    expect(await vaultLiveUntil(ctx, user, merchant)).toBeUndefined();
    expect((await view(ctx, vault, 'get_vault', pullArgs(user, merchant))).type).toBe('scvVoid');

    // What the service searches: exactly these three topics on the vault contract.
    const found = await ctx.server.getEvents({
      startLedger: 1,
      filters: [
        {
          type: 'contract',
          contractIds: [vault],
          topics: [[sym('vault_cancelled'), address(user.publicKey()), address(merchant.publicKey())]],
        },
      ],
    });
    expect(found.events).toHaveLength(1);
    expect(found.events[0].ledger).toBe(res.ledger);

    expect(await simError(ctx, merchant, 'pull_funds', pullArgs(user, merchant))).toBe(
      'HostError: Error(WasmVm, InvalidAction)',
    );
    expect(await simError(ctx, user, 'cancel_vault', pullArgs(user, merchant))).toBe(
      'HostError: Error(WasmVm, InvalidAction)',
    );
  });

  it('only the user can cancel: the merchant signing for it fails authentication', async () => {
    const [user, merchant] = [kp(ctx, 2), kp(ctx, 3)];
    await fundAndApprove(ctx, user, 1000n, 1000n);
    await createVault(ctx, user, merchant, { amount: 10n, interval: 60n });
    // The merchant is the source: the user's address needs its own signed entry, which it lacks.
    const tx = await buildCall(ctx, merchant, ctx.devnet.contracts.vault, 'cancel_vault', pullArgs(user, merchant));
    const sim = await ctx.server.simulateTransaction(tx);
    expect(rpc.Api.isSimulationSuccess(sim)).toBe(true);
    const res = await sendAndClose(ctx, await prepareAndSign(ctx, tx, merchant));
    expect(res.status).toBe('FAILED');
    expect(await vaultLiveUntil(ctx, user, merchant)).toBeDefined();
  });

  it('a vault can be created again after a cancel', async () => {
    const [user, merchant] = [kp(ctx, 0), kp(ctx, 1)];
    await createVault(ctx, user, merchant, { amount: 50n, interval: 120n });
    expect(
      scValToNative(await view(ctx, ctx.devnet.contracts.vault, 'get_vault', pullArgs(user, merchant)))
        .amount_per_interval,
    ).toBe(50n);
  });
});

describe('deployed build (default)', () => {
  it('has no cancel_vault, no vault_created event, and leaves the new entry at the minimum TTL', async () => {
    const [user, merchant] = [kp(deployed, 0), kp(deployed, 1)];
    await fundAndApprove(deployed, user, 1000n, 1000n);
    const res = await createVault(deployed, user, merchant, { amount: 100n, interval: 60n });
    expect(res.events.contractEventsXdr[0] ?? []).toEqual([]);
    expect(await vaultLiveUntil(deployed, user, merchant)).toBeLessThan(res.ledger + 518_400);
    expect(await simError(deployed, user, 'cancel_vault', pullArgs(user, merchant))).toMatch(
      /^HostError: Error\(WasmVm, /,
    );
  });
});

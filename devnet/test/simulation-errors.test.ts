// Simulation failures read exactly as real RPC writes them (soroban-rpc-notes §5.5):
// panics without text, SAC errors #9/#10 with their diagnostics and the nested layout.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rpc, type Keypair, type xdr } from '@stellar/stellar-sdk';
import { addr, buildCall, closeLedger, control, i128, kp, startTestDevnet, u64, type Ctx } from './support/devnet.ts';
import { createVault, fundAndApprove, pullArgs } from './support/vault.ts';

let ctx: Ctx;
let vault: string;
let token: string;
beforeAll(async () => {
  ctx = await startTestDevnet();
  ({ vault, token } = ctx.devnet.contracts);
});
afterAll(() => ctx.devnet.close());

async function simError(source: Keypair, contract: string, fn: string, args: xdr.ScVal[]) {
  const sim = await ctx.server.simulateTransaction(await buildCall(ctx, source, contract, fn, args));
  if (!rpc.Api.isSimulationError(sim)) throw new Error(`${fn} simulated successfully`);
  return sim;
}

const lines = (error: string) => error.split('\n');

describe('vault panics read as a Wasm trap with no panic text', () => {
  it('pull_funds with no vault', async () => {
    const [user, merchant] = [kp(ctx, 0), kp(ctx, 1)];
    const sim = await simError(merchant, vault, 'pull_funds', pullArgs(user, merchant));
    expect(sim.error).toBe(
      'HostError: Error(WasmVm, InvalidAction)\n\nEvent log (newest first):\n' +
        `   0: [Diagnostic Event] contract:${vault}, topics:[error, Error(WasmVm, InvalidAction)], data:["VM call trapped: UnreachableCodeReached", pull_funds]\n` +
        `   1: [Diagnostic Event] topics:[fn_call, ${vault}, pull_funds], data:[${user.publicKey()}, ${merchant.publicKey()}]\n`,
    );
    expect(sim.error).not.toMatch(/Vault does not exist/);
    expect(sim.events).toHaveLength(2);
    expect(sim.latestLedger).toBeGreaterThan(0);
  });

  it('pull_funds too early, and create_vault with bad terms', async () => {
    const [user, merchant] = [kp(ctx, 0), kp(ctx, 1)];
    await fundAndApprove(ctx, user, 1000n, 1000n);
    await createVault(ctx, user, merchant, { amount: 100n, interval: 86_400n });
    const tx = await ctx.server.prepareTransaction(
      await buildCall(ctx, merchant, vault, 'pull_funds', pullArgs(user, merchant)),
    );
    tx.sign(merchant);
    expect((await ctx.server.sendTransaction(tx)).status).toBe('PENDING');
    await closeLedger(ctx);
    const early = await simError(merchant, vault, 'pull_funds', pullArgs(user, merchant));
    expect(lines(early.error)[0]).toBe('HostError: Error(WasmVm, InvalidAction)');
    expect(early.error).not.toMatch(/Too early/);
    const bad = (amount: bigint, interval: bigint) => [
      addr(user.publicKey()),
      addr(kp(ctx, 2).publicKey()),
      addr(token),
      i128(amount),
      u64(interval),
    ];
    for (const args of [bad(0n, 60n), bad(-5n, 60n), bad(10n, 0n)]) {
      const sim = await simError(user, vault, 'create_vault', args);
      expect(lines(sim.error)[0]).toBe('HostError: Error(WasmVm, InvalidAction)');
      expect(sim.error).toContain('data:["VM call trapped: UnreachableCodeReached", create_vault]');
    }
  });
});

describe('token errors', () => {
  it('allowance #9 nested in pull_funds, with the SAC event marked failed', async () => {
    const [user, merchant] = [kp(ctx, 3), kp(ctx, 1)];
    await control(ctx, 'mint', { to: user.publicKey(), amount: '5000' });
    await createVault(ctx, user, merchant, { amount: 700n, interval: 60n });
    const sim = await simError(merchant, vault, 'pull_funds', pullArgs(user, merchant));
    const l = lines(sim.error);
    const callArgs = `[${vault}, ${user.publicKey()}, ${merchant.publicKey()}, 700]`;
    expect(l.slice(0, 8)).toEqual([
      'HostError: Error(Contract, #9)',
      '',
      'Event log (newest first):',
      `   0: [Diagnostic Event] contract:${vault}, topics:[error, Error(Contract, #9)], data:"escalating error to VM trap from failed host function call: call"`,
      `   1: [Diagnostic Event] contract:${vault}, topics:[error, Error(Contract, #9)], data:["contract call failed", transfer_from, ${callArgs}]`,
      `   2: [Failed Diagnostic Event (not emitted)] contract:${token}, topics:[error, Error(Contract, #9)], data:["not enough allowance to spend", 0, 700]`,
      `   3: [Diagnostic Event] contract:${vault}, topics:[fn_call, ${token}, transfer_from], data:${callArgs}`,
      `   4: [Diagnostic Event] topics:[fn_call, ${vault}, pull_funds], data:[${user.publicKey()}, ${merchant.publicKey()}]`,
    ]);
    expect(sim.events.map((e) => e.inSuccessfulContractCall)).toEqual([true, true, false, true, true]);
  });

  it('balance #10 nested in pull_funds when the allowance is enough', async () => {
    const [user, merchant] = [kp(ctx, 4), kp(ctx, 1)];
    await fundAndApprove(ctx, user, 100n, 10_000n);
    await createVault(ctx, user, merchant, { amount: 700n, interval: 60n });
    const sim = await simError(merchant, vault, 'pull_funds', pullArgs(user, merchant));
    const l = lines(sim.error);
    expect(l[0]).toBe('HostError: Error(Contract, #10)');
    expect(l[3]).toContain('data:"escalating error to VM trap from failed host function call: call"');
    expect(l[5]).toBe(
      `   2: [Failed Diagnostic Event (not emitted)] contract:${token}, topics:[error, Error(Contract, #10)], data:["resulting balance is not within the allowed range", 0, -600, 9223372036854775807]`,
    );
  });

  it('transfer_from called directly: the SAC error is not marked failed', async () => {
    const [spender, owner] = [kp(ctx, 1), kp(ctx, 5)];
    const args = [addr(spender.publicKey()), addr(owner.publicKey()), addr(spender.publicKey()), i128(1)];
    const sim = await simError(spender, token, 'transfer_from', args);
    expect(sim.error).toBe(
      'HostError: Error(Contract, #9)\n\nEvent log (newest first):\n' +
        `   0: [Diagnostic Event] contract:${token}, topics:[error, Error(Contract, #9)], data:["not enough allowance to spend", 0, 1]\n` +
        `   1: [Diagnostic Event] topics:[fn_call, ${token}, transfer_from], data:[${spender.publicKey()}, ${owner.publicKey()}, ${spender.publicKey()}, 1]\n`,
    );
  });

  it('an expired allowance reads as 0 and fails with #9', async () => {
    const [user, merchant] = [kp(ctx, 5), kp(ctx, 2)];
    await fundAndApprove(ctx, user, 5000n, 5000n, 2);
    await createVault(ctx, user, merchant, { amount: 10n, interval: 60n });
    await closeLedger(ctx);
    await closeLedger(ctx);
    const sim = await simError(merchant, vault, 'pull_funds', pullArgs(user, merchant));
    expect(lines(sim.error)[0]).toBe('HostError: Error(Contract, #9)');
    expect(sim.error).toContain('data:["not enough allowance to spend", 0, 10]');
  });

  it('prepareTransaction throws the whole error text', async () => {
    const [user, merchant] = [kp(ctx, 0), kp(ctx, 2)];
    const tx = await buildCall(ctx, merchant, vault, 'pull_funds', pullArgs(user, merchant));
    await expect(ctx.server.prepareTransaction(tx)).rejects.toThrow(
      /^HostError: Error\(WasmVm, InvalidAction\)\n\nEvent log/,
    );
  });
});

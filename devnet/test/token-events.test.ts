// The token's events in the protocol-23+ (CAP-67) shape, including the issuer cases of
// event.rs transfer_maybe_with_issuer: from the issuer is a mint, to the issuer a burn.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Keypair, scValToNative } from '@stellar/stellar-sdk';
import { addr, i128, invokeOk, kp, startTestDevnet, type Ctx } from './support/devnet.ts';
import { control } from './support/devnet.ts';

let ctx: Ctx;
beforeAll(async () => {
  ctx = await startTestDevnet(2);
});
afterAll(() => ctx.devnet.close());

const topics = (res: Awaited<ReturnType<typeof invokeOk>>) =>
  res.events.contractEventsXdr[0].map((e) => [...e.body.v0.topics.map(scValToNative), scValToNative(e.body.v0.data)]);

it('transfer, and the issuer as sender (mint) or receiver (burn)', async () => {
  const { token } = ctx.devnet.contracts;
  const name = `USDC:${ctx.devnet.tokenAdmin.publicKey}`;
  const issuer = Keypair.fromSecret(ctx.devnet.tokenAdmin.secret);
  const holder = kp(ctx, 0);
  await control(ctx, 'mint', { to: holder.publicKey(), amount: '1000' });
  const t = await invokeOk(ctx, holder, token, 'transfer', [
    addr(holder.publicKey()),
    addr(kp(ctx, 1).publicKey()),
    i128(10),
  ]);
  expect(topics(t)).toEqual([['transfer', holder.publicKey(), kp(ctx, 1).publicKey(), name, 10n]]);
  const burn = await invokeOk(ctx, holder, token, 'transfer', [
    addr(holder.publicKey()),
    addr(issuer.publicKey()),
    i128(5),
  ]);
  expect(topics(burn)).toEqual([['burn', holder.publicKey(), name, 5n]]);
  const mint = await invokeOk(ctx, issuer, token, 'transfer', [
    addr(issuer.publicKey()),
    addr(holder.publicKey()),
    i128(7),
  ]);
  expect(topics(mint)).toEqual([['mint', holder.publicKey(), name, 7n]]);
});

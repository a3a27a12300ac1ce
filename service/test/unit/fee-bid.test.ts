// The inclusion-fee bid: fee statistics read once per FEE_STATS_TTL_MS and shared, a refusal
// raising that source's bid, the cap refusing with fee_too_high, a failed read falling back.
import { describe, expect, it } from 'vitest';
import { FEE_STATS_TTL_MS, FeeBidder } from '../../src/chain/fee-bid.ts';

function reader(fees: bigint[]) {
  let calls = 0;
  const read = async () => {
    const fee = fees[Math.min(calls, fees.length - 1)]!;
    calls++;
    return fee;
  };
  return { read, calls: () => calls };
}

describe('FeeBidder', () => {
  it('reads the statistics once for many bids, at once or in a row, within the TTL', async () => {
    const r = reader([300n]);
    const bidder = new FeeBidder(r.read, 1_000_000n);
    const bids = await Promise.all(Array.from({ length: 100 }, (_, i) => bidder.bid(`G${i}`)));
    expect(new Set(bids)).toEqual(new Set([300n]));
    expect(await bidder.bid('G0')).toBe(300n);
    expect(r.calls()).toBe(1);
    expect(FEE_STATS_TTL_MS).toBe(30_000);
  });

  it('reads again once the TTL has passed', async () => {
    const r = reader([300n, 700n]);
    const bidder = new FeeBidder(r.read, 1_000_000n, 20);
    expect(await bidder.bid('G')).toBe(300n);
    await new Promise((done) => setTimeout(done, 30));
    expect(await bidder.bid('G')).toBe(700n);
    expect(r.calls()).toBe(2);
  });

  it('a refusal doubles that source’s bid (or jumps to what the network said), acceptance resets it', async () => {
    const bidder = new FeeBidder(reader([100n]).read, 1_000_000n);
    bidder.refused('A', 100n);
    expect(await bidder.bid('A')).toBe(200n);
    expect(await bidder.bid('B')).toBe(100n);
    bidder.refused('A', 200n, 5_000n);
    expect(await bidder.bid('A')).toBe(5_000n);
    bidder.accepted('A');
    expect(await bidder.bid('A')).toBe(100n);
  });

  it('above the cap: fee_too_high, from the statistics or after a refusal at the cap', async () => {
    await expect(new FeeBidder(reader([9_000n]).read, 5_000n).bid('A')).rejects.toMatchObject({
      code: 'fee_too_high',
    });
    const bidder = new FeeBidder(reader([100n]).read, 5_000n);
    bidder.refused('A', 5_000n);
    await expect(bidder.bid('A')).rejects.toMatchObject({
      code: 'fee_too_high',
      message: 'The network refused an inclusion fee of MAX_INCLUSION_FEE (5000 stroops)',
    });
  });

  it('a failed read bids what it last knew, or the minimum', async () => {
    let fail = false;
    const bidder = new FeeBidder(
      async () => {
        if (fail) throw new Error('getFeeStats timed out');
        return 400n;
      },
      1_000_000n,
      0,
    );
    expect(await bidder.bid('A')).toBe(400n);
    fail = true;
    expect(await bidder.bid('A')).toBe(400n);
    const fresh = new FeeBidder(async () => {
      throw new Error('down');
    }, 1_000_000n);
    expect(await fresh.bid('A')).toBe(100n);
  });
});

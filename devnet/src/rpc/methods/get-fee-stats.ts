import type { Method } from '../jsonrpc.ts';

// No surge pricing on the devnet: every percentile is the base fee, as on an idle network.
const flat = (count: number) => ({
  max: '100', min: '100', mode: '100',
  p10: '100', p20: '100', p30: '100', p40: '100', p50: '100', p60: '100', p70: '100', p80: '100', p90: '100', p95: '100', p99: '100',
  transactionCount: String(count),
  ledgerCount: 50,
});

export const getFeeStats: Method = (net) => ({
  sorobanInclusionFee: flat(0),
  inclusionFee: flat(0),
  latestLedger: net.latest.sequence,
});

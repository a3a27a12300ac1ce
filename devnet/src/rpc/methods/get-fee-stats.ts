// getFeeStats (stellar-rpc methods/get_fee_stats.go over feewindow/feewindow.go): the distribution
// of the inclusion fees transactions were *charged* in the last ledgers of the fee window (50
// ledgers for Soroban: soroban-fee-stats-retention-window; 10 for classic). A Soroban
// transaction's inclusion fee is feeCharged − (non-refundable + refundable resource fee charged),
// i.e. what surge pricing made it pay, not its bid (IngestFees). Percentiles are nearest-rank
// (computeFeeDistribution); with no transaction in the window every field is 0.
import type { Method } from '../jsonrpc.ts';

/** stellar-rpc's classic-fee-stats-retention-window default. */
const CLASSIC_WINDOW = 10;

type Distribution = Record<string, string | number>;

function distribution(fees: bigint[], ledgerCount: number): Distribution {
  const sorted = [...fees].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const n = sorted.length;
  if (n === 0) {
    return {
      max: '0',
      min: '0',
      mode: '0',
      p10: '0',
      p20: '0',
      p30: '0',
      p40: '0',
      p50: '0',
      p60: '0',
      p70: '0',
      p80: '0',
      p90: '0',
      p95: '0',
      p99: '0',
      transactionCount: '0',
      ledgerCount: 0,
    };
  }
  // The longest run of equal values; on a tie the first such run (computeFeeDistribution).
  let mode = sorted[0];
  let best = 0;
  let run = 0;
  for (let i = 1; i < n; i++) {
    if (sorted[i] === sorted[i - 1]) {
      run++;
      continue;
    }
    if (run > best) {
      best = run;
      mode = sorted[i - 1];
    }
    run = 0;
  }
  if (run > best) mode = sorted[n - 1];
  const p = (q: number) => String(sorted[Math.ceil((q * n) / 100) - 1]);
  return {
    max: String(sorted[n - 1]),
    min: String(sorted[0]),
    mode: String(mode),
    p10: p(10),
    p20: p(20),
    p30: p(30),
    p40: p(40),
    p50: p(50),
    p60: p(60),
    p70: p(70),
    p80: p(80),
    p90: p(90),
    p95: p(95),
    p99: p(99),
    transactionCount: String(n),
    ledgerCount,
  };
}

export const getFeeStats: Method = (net) => {
  const window = net.feeWindow;
  const soroban = window.flatMap((l) => l.sorobanInclusionFees);
  // The devnet runs no classic transactions: the classic window is empty.
  return {
    sorobanInclusionFee: distribution(soroban, window.length),
    inclusionFee: distribution([], Math.min(window.length, CLASSIC_WINDOW)),
    latestLedger: net.latest.sequence,
  };
};

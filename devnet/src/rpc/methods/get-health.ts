import type { Method } from '../jsonrpc.ts';
import { GENESIS_SEQUENCE } from '../../ledger/genesis.ts';

export const RETENTION_WINDOW = 120_960;

// The devnet keeps its whole history, so the oldest ledger is always genesis.
export const getHealth: Method = (net) => ({
  status: 'healthy',
  latestLedger: net.latest.sequence,
  latestLedgerCloseTime: String(net.latest.closeTime),
  oldestLedger: GENESIS_SEQUENCE,
  ledgerRetentionWindow: RETENTION_WINDOW,
});

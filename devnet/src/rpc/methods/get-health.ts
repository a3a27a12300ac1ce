import type { Method } from '../jsonrpc.ts';

/** What stellar-rpc reports by default (history-retention-window). */
export const DEFAULT_RETENTION_WINDOW = 120_960;

// stellar-rpc methods/get_health.go with go-stellar-sdk's GetHealthResponse: the close times
// are unix seconds as strings (`json:",string"`), the window is a number. The window is the
// configured --retention-ledgers, or the RPC default when the devnet keeps everything.
export const getHealth: Method = (net) => ({
  status: 'healthy',
  latestLedger: net.latest.sequence,
  latestLedgerCloseTime: String(net.latest.closeTime),
  oldestLedger: net.oldest.sequence,
  oldestLedgerCloseTime: String(net.oldest.closeTime),
  ledgerRetentionWindow: net.retentionLedgers ?? DEFAULT_RETENTION_WINDOW,
});

// The JSON-RPC method table: one file per method, registered here in one list.
import type { Method } from '../jsonrpc.ts';
import { getEvents } from './get-events.ts';
import { getFeeStats } from './get-fee-stats.ts';
import { getHealth } from './get-health.ts';
import { getLatestLedger } from './get-latest-ledger.ts';
import { getLedgerEntries } from './get-ledger-entries.ts';
import { getLedgers } from './get-ledgers.ts';
import { getNetwork, getVersionInfo } from './get-network.ts';
import { getTransaction } from './get-transaction.ts';
import { getTransactions } from './get-transactions.ts';
import { sendTransaction } from './send-transaction.ts';
import { simulateTransaction } from './simulate-transaction.ts';

export const rpcMethods: Record<string, Method> = {
  getHealth,
  getNetwork,
  getVersionInfo,
  getLatestLedger,
  getLedgerEntries,
  getLedgers,
  simulateTransaction,
  sendTransaction,
  getTransaction,
  getTransactions,
  getEvents,
  getFeeStats,
};

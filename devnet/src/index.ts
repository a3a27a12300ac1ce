// Programmatic entry point: start a devnet in-process (tests, demo, benchmarks).
import type { AddressInfo } from 'node:net';
import { DevnetControl } from './control/controls.ts';
import { LedgerClock } from './network/clock.ts';
import { DEFAULT_PASSPHRASE } from './network/genesis.ts';
import { Network } from './network/network.ts';
import { createDevnetServer } from './server.ts';
import { applyLedger } from './tx/apply.ts';
import { VAULT_BUILDS, type VaultBuild } from './contracts/vault.ts';

export type DevnetOptions = {
  /** 0 (default here) picks a free port. */
  port?: number;
  host?: string;
  /** Ledger period; 0 closes ledgers only on demand. Default 5000. */
  ledgerMs?: number;
  /** Funded test accounts. Default 5. */
  accounts?: number;
  passphrase?: string;
  /**
   * Ledgers the RPC side remembers, like stellar-rpc's history-retention-window: older
   * transactions answer NOT_FOUND and getHealth/getTransaction/getEvents/getLedgers report
   * the window's oldest ledger. Default: keep everything.
   */
  retentionLedgers?: number;
  /**
   * The vault contract's build: 'deployed' (default, the contract as deployed) or 'extended'
   * (Orbit's planned build: cancel_vault, vault_created / vault_cancelled events, TTL extension).
   */
  vaultBuild?: VaultBuild;
  /**
   * Test overrides of the network configuration (ledger/network-config.ts; the rest is the real
   * network's): state_archival min_persistent_ttl (120,960) and min_temporary_ttl (720), so entries
   * archive or expire within a test, and contract_execution_lanes ledger_max_tx_count (2,000), so a
   * few transactions fill a ledger.
   */
  minPersistentTtl?: number;
  minTemporaryTtl?: number;
  ledgerMaxTxCount?: number;
};

export type KeyPairInfo = { publicKey: string; secret: string };

export type Devnet = {
  rpcUrl: string;
  controlUrl: string;
  passphrase: string;
  ledgerMs: number;
  retentionLedgers: number | undefined;
  vaultBuild: VaultBuild;
  contracts: { vault: string; token: string };
  tokenAdmin: KeyPairInfo;
  accounts: KeyPairInfo[];
  control: DevnetControl;
  close(): Promise<void>;
};

export { DevnetControl } from './control/controls.ts';
export type { DevnetState } from './control/controls.ts';
export type { FaultSpec } from './ledger/faults.ts';
export type { TrafficArm, TrafficRequest, TrafficTx } from './control/traffic.ts';
export type { TrustlineAnswer, TrustlineRequest, TrustlineView } from './control/trustlines.ts';
export type { VaultBuild } from './contracts/vault.ts';
export type { Submission } from './ledger/history.ts';
export type { CongestionReply, CongestionRequest } from './control/congestion.ts';
export type { SorobanNetworkConfig } from './ledger/network-config.ts';

export async function startDevnet(opts: DevnetOptions = {}): Promise<Devnet> {
  const ledgerMs = opts.ledgerMs ?? 5000;
  if (opts.vaultBuild !== undefined && !VAULT_BUILDS.includes(opts.vaultBuild)) {
    throw new Error(`vaultBuild must be one of ${VAULT_BUILDS.join(', ')}`);
  }
  const net = new Network(
    {
      passphrase: opts.passphrase ?? DEFAULT_PASSPHRASE,
      accounts: opts.accounts ?? 5,
      ledgerMs,
      retentionLedgers: opts.retentionLedgers,
      vaultBuild: opts.vaultBuild,
      config: {
        minPersistentTtl: opts.minPersistentTtl,
        minTemporaryTtl: opts.minTemporaryTtl,
        ledgerMaxTxCount: opts.ledgerMaxTxCount,
      },
    },
    applyLedger,
  );
  const clock = new LedgerClock(net);
  const control = new DevnetControl(net, clock);
  const server = createDevnetServer(net, control);
  const host = opts.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => resolve());
  });
  clock.start();
  const port = (server.address() as AddressInfo).port;
  const base = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const { genesis } = net;
  const info = (k: { publicKey(): string; secret(): string }) => ({ publicKey: k.publicKey(), secret: k.secret() });
  return {
    rpcUrl: `${base}/`,
    controlUrl: `${base}/control`,
    passphrase: net.passphrase,
    ledgerMs,
    retentionLedgers: net.retentionLedgers,
    vaultBuild: opts.vaultBuild ?? 'deployed',
    contracts: { vault: genesis.vault, token: genesis.token },
    tokenAdmin: info(genesis.tokenAdmin),
    accounts: genesis.accounts.map(info),
    control,
    close: () =>
      new Promise<void>((resolve) => {
        clock.stop();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

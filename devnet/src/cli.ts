#!/usr/bin/env node
// `npm start -w devnet`: run the devnet standalone. --json prints exactly one line
// of JSON on stdout (for scripts); otherwise a readable summary.
import { parseArgs } from 'node:util';
import { startDevnet, type Devnet } from './index.ts';
import { VAULT_BUILDS, type VaultBuild } from './contracts/vault.ts';

function intFlag(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) {
    process.stderr.write(`--${name} must be a non-negative integer\n`);
    process.exit(2);
  }
  return n;
}

const { values } = parseArgs({
  options: {
    port: { type: 'string' },
    host: { type: 'string' },
    'ledger-ms': { type: 'string' },
    accounts: { type: 'string' },
    'retention-ledgers': { type: 'string' },
    'vault-build': { type: 'string' },
    'min-persistent-ttl': { type: 'string' },
    'min-temporary-ttl': { type: 'string' },
    'ledger-max-tx-count': { type: 'string' },
    json: { type: 'boolean', default: false },
  },
});

const devnet = await startDevnet({
  port: intFlag(values.port, 'port', 8000),
  host: values.host ?? '127.0.0.1',
  ledgerMs: intFlag(values['ledger-ms'], 'ledger-ms', 5000),
  accounts: intFlag(values.accounts, 'accounts', 5),
  retentionLedgers: retentionFlag(values['retention-ledgers']),
  vaultBuild: vaultBuildFlag(values['vault-build']),
  minPersistentTtl: positiveFlag(values['min-persistent-ttl'], 'min-persistent-ttl'),
  minTemporaryTtl: positiveFlag(values['min-temporary-ttl'], 'min-temporary-ttl'),
  ledgerMaxTxCount: positiveFlag(values['ledger-max-tx-count'], 'ledger-max-tx-count'),
});

function positiveFlag(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  const n = intFlag(value, name, 0);
  if (n < 1) {
    process.stderr.write(`--${name} must be a positive integer\n`);
    process.exit(2);
  }
  return n;
}

function vaultBuildFlag(value: string | undefined): VaultBuild | undefined {
  if (value === undefined) return undefined;
  if (!(VAULT_BUILDS as readonly string[]).includes(value)) {
    process.stderr.write(`--vault-build must be one of ${VAULT_BUILDS.join(', ')}\n`);
    process.exit(2);
  }
  return value as VaultBuild;
}

function retentionFlag(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = intFlag(value, 'retention-ledgers', 0);
  if (n < 1) {
    process.stderr.write('--retention-ledgers must be a positive integer\n');
    process.exit(2);
  }
  return n;
}

if (values.json) {
  process.stdout.write(`${JSON.stringify(summary(devnet))}\n`);
} else {
  printHuman(devnet);
}

function summary(d: Devnet) {
  return {
    rpcUrl: d.rpcUrl,
    controlUrl: d.controlUrl,
    passphrase: d.passphrase,
    ledgerMs: d.ledgerMs,
    vaultBuild: d.vaultBuild,
    contracts: d.contracts,
    tokenAdmin: d.tokenAdmin,
    accounts: d.accounts,
  };
}

function printHuman(d: Devnet): void {
  const lines = [
    'Local Soroban devnet running',
    `  RPC URL      ${d.rpcUrl}`,
    `  Control API  ${d.controlUrl}`,
    `  Passphrase   ${d.passphrase}`,
    `  Ledger close ${d.ledgerMs > 0 ? `every ${d.ledgerMs} ms` : 'on demand (POST /control/close-ledger)'}`,
    `  Retention    ${d.retentionLedgers === undefined ? 'every ledger' : `the last ${d.retentionLedgers} ledgers`}`,
    `  Min TTL      persistent ${d.control.networkConfig().minPersistentTtl}, temporary ${d.control.networkConfig().minTemporaryTtl} ledgers; ${d.control.networkConfig().ledgerMaxTxCount} Soroban txs per ledger`,
    `  Vault        ${d.contracts.vault} (${d.vaultBuild} build)`,
    `  Token (USDC) ${d.contracts.token}`,
    `  Token admin  ${d.tokenAdmin.publicKey}  ${d.tokenAdmin.secret}`,
    'Funded test accounts (10,000 XLM each; throwaway keys, never use them elsewhere):',
    ...d.accounts.map((a, i) => `  ${i}: ${a.publicKey}  ${a.secret}`),
    'Ctrl-C to stop.',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

let closing = false;
const shutdown = () => {
  if (closing) return;
  closing = true;
  devnet.close().then(() => process.exit(0));
};
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);

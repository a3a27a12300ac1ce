#!/usr/bin/env node
// `billing reconcile --since <when> [--merchant <id>] [--json]` (the service's CLI runs this file):
// the books against the chain, for one merchant or all. Configured like the service: DATABASE_URL,
// SOROBAN_RPC_URL, CONTRACT_ID. Exit status 1 when anything does not match, 2 on an error.
import { parseArgs } from 'node:util';
import { reconcile } from './reconcile.ts';

const USAGE = 'usage: billing reconcile --since <ISO time | 24h | 7d> [--merchant <id>] [--json]';

export function parseSince(text: string, now = Date.now()): Date {
  const rel = /^(\d+)\s*([smhd])$/.exec(text.trim());
  if (rel) {
    const unit = { s: 1, m: 60, h: 3600, d: 86_400 }[rel[2] as 's' | 'm' | 'h' | 'd'];
    return new Date(now - Number(rel[1]) * unit * 1000);
  }
  const t = Date.parse(text);
  if (Number.isNaN(t)) throw new Error(`--since: not a time: ${text}`);
  return new Date(t);
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: { since: { type: 'string' }, merchant: { type: 'string' }, json: { type: 'boolean' } },
  });
  if (!values.since) throw new Error(USAGE);
  const databaseUrl = process.env.DATABASE_URL;
  const rpcUrl = process.env.SOROBAN_RPC_URL;
  const vault = process.env.CONTRACT_ID;
  if (!databaseUrl || !/^postgres(ql)?:\/\//.test(databaseUrl))
    throw new Error('DATABASE_URL must be a postgres:// URL');
  if (!rpcUrl) throw new Error('SOROBAN_RPC_URL is not set');
  if (!vault) throw new Error('CONTRACT_ID (the vault) is not set');
  const report = await reconcile({
    databaseUrl,
    rpcUrl,
    vault,
    since: parseSince(values.since),
    merchantId: values.merchant,
  });
  if (values.json) {
    console.log(JSON.stringify(report, (_k, v) => (typeof v === 'bigint' ? v.toString() : v), 2));
    return report.mismatches.length ? 1 : 0;
  }
  console.log(
    `Books since ${report.since.toISOString()} — chain ledgers ${report.window.oldestLedger}–${report.window.latestLedger} (what the RPC still holds)`,
  );
  const rows = report.merchants.map((m) => [
    m.merchantId,
    m.name,
    String(m.confirmed),
    String(m.matched),
    m.collected.toString(),
    String(m.beyondRetention),
  ]);
  const head = ['MERCHANT', 'NAME', 'CONFIRMED PULLS', 'MATCHED ON CHAIN', 'COLLECTED (raw units)', 'TOO OLD TO CHECK'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  for (const r of [head, ...rows]) console.log(r.map((c, i) => c.padEnd(widths[i]!)).join('  '));
  if (report.mismatches.length === 0) {
    console.log(
      `\nEvery confirmed pull matches its transfer on chain, and every pull on chain is recorded (${report.matched} matched).`,
    );
    return 0;
  }
  console.log(`\n${report.mismatches.length} mismatch(es):`);
  for (const m of report.mismatches) console.log(`  - ${m}`);
  return 1;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`billing reconcile: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(2);
  },
);

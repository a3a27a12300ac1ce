#!/usr/bin/env node
// `billing`: what an operator does by hand, with the server's own configuration (DATABASE_URL
// etc.), verbs and migrations. Human output by default, --json for scripts; errors go to stderr
// with exit status 1. Arguments are parsed by commander, never by hand.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Command } from 'commander';
import { CreateMerchantBody, merchantJson } from '../schemas/merchants.ts';
import { IdParams } from '../schemas/common.ts';
import { PlanListQuery } from '../schemas/listings.ts';
import { planJson } from '../schemas/plans.ts';
import { describeDatabase } from '../config.ts';
import { channelCommands } from './channels.ts';
import { keyCommands } from './keys.ts';
import {
  CliError,
  cliConfig,
  cliCursors,
  json,
  moreHint,
  output,
  pageOptions,
  parse,
  table,
  withDeps,
} from './session.ts';

const program = new Command('billing')
  .description('Recurring billing on Soroban: operator commands')
  .showHelpAfterError();

program
  .command('serve')
  .description('start the HTTP API (same as `npm start`; configured by the environment)')
  .action(async () => {
    await import('../main.ts');
  });

program
  .command('migrate')
  .description('apply pending schema migrations to DATABASE_URL (or the embedded database)')
  .addOption(json())
  .action(async (o: { json?: boolean }) => {
    const target = describeDatabase(cliConfig().database);
    const applied = await withDeps('migrate', (deps) => deps.migrations.apply(), { needsSchema: false });
    output(Boolean(o.json), { database: target, applied }, () =>
      applied.length ? `${target}: applied ${applied.join(', ')}` : `${target}: schema up to date`,
    );
  });

const merchants = program.command('merchants').description('create, list and delete merchants');

merchants
  .command('create')
  .description('create a merchant and print its first API key (shown this once)')
  .requiredOption('--name <name>', 'display name')
  .requiredOption('--wallet <address>', 'Stellar account (G…) that receives the pulled funds')
  .addOption(json())
  .action(async (o: { name: string; wallet: string; json?: boolean }) => {
    const input = parse(CreateMerchantBody, { name: o.name, wallet_address: o.wallet });
    const created = await withDeps('merchants-create', (d, ctx) => d.verbs.createMerchant({ ctx, input }));
    const merchant = merchantJson(created.merchant);
    const apiKey = created.apiKey.secret;
    output(
      Boolean(o.json),
      { merchant, api_key: apiKey },
      () =>
        `Merchant created: ${merchant.id} ${merchant.name} (${merchant.wallet_address})\nAPI key (shown once, store it now): ${apiKey}`,
    );
  });

pageOptions(merchants.command('list').description('list live merchants, oldest first'))
  .addOption(json())
  .action(async (o: { limit: string; cursor?: string; json?: boolean }) => {
    const q = parse(PlanListQuery, { limit: o.limit, cursor: o.cursor });
    const cursors = cliCursors();
    const res = await withDeps('merchants-list', (d, ctx) =>
      d.verbs.listMerchants({ ctx, input: { page: cursors.page(q) } }),
    );
    const next_cursor = res.next ? cursors.encode(q.order, res.next) : null;
    const rows = res.items.map(merchantJson);
    output(
      Boolean(o.json),
      { merchants: rows, next_cursor },
      () =>
        table(
          ['ID', 'NAME', 'WALLET', 'CREATED'],
          rows.map((m) => [m.id, m.name, m.wallet_address, m.created_at]),
        ) + moreHint(next_cursor),
    );
  });

merchants
  .command('delete')
  .description('soft-delete a merchant (its plans are withdrawn, its API keys stop working; history stays)')
  .argument('<id>', 'merchant id')
  .addOption(json())
  .action(async (id: string, o: { json?: boolean }) => {
    const input = parse(IdParams, { id });
    const merchant = await withDeps('merchants-delete', (d, ctx) => d.verbs.deleteMerchant({ ctx, input }));
    const body = { ...merchantJson(merchant), deleted_at: (merchant.deleted_at as Date).toISOString() };
    output(Boolean(o.json), { merchant: body }, () => `Merchant deleted: ${body.id} ${body.name}`);
  });

const plans = program.command('plans').description('list plans');

pageOptions(plans.command('list').description("list a merchant's plans, oldest first"))
  .requiredOption('--merchant <id>', 'merchant id')
  .addOption(json())
  .action(async (o: { merchant: string; limit: string; cursor?: string; json?: boolean }) => {
    const { id } = parse(IdParams, { id: o.merchant });
    const q = parse(PlanListQuery, { limit: o.limit, cursor: o.cursor });
    const cursors = cliCursors();
    const res = await withDeps('plans-list', (d, ctx) =>
      d.verbs.listMerchantPlans({ ctx, input: { merchant_id: id, page: cursors.page(q) } }),
    );
    const next_cursor = res.next ? cursors.encode(q.order, res.next) : null;
    output(
      Boolean(o.json),
      { plans: res.items.map(planJson), next_cursor },
      () =>
        table(
          ['ID', 'NAME', 'TOKEN_AMOUNT', 'INTERVAL_S', 'CREATED'],
          // The amount as the database holds it: exact text, never through a float.
          res.items.map((p) => [p.id, p.name, p.token_amount, String(p.interval_seconds), p.created_at.toISOString()]),
        ) + moreHint(next_cursor),
    );
  });

keyCommands(program);
channelCommands(program);

// The books against the chain. The code lives in the soak workspace and shares nothing with the
// service (an independent check must not reuse what it checks): this only runs it.
program
  .command('reconcile')
  .description(
    'match confirmed pulls to on-chain transfers and on-chain pulls to the records (DATABASE_URL, SOROBAN_RPC_URL, CONTRACT_ID)',
  )
  .requiredOption('--since <when>', 'ISO time, or 24h / 7d back from now')
  .option('--merchant <id>', 'one merchant (default: all)')
  .addOption(json())
  .action((o: { since: string; merchant?: string; json?: boolean }) => {
    const args = ['--since', o.since, ...(o.merchant ? ['--merchant', o.merchant] : []), ...(o.json ? ['--json'] : [])];
    const entry = fileURLToPath(new URL('../../../soak/src/reconcile-cli.ts', import.meta.url));
    const run = spawnSync(process.execPath, [entry, ...args], { stdio: 'inherit' });
    process.exitCode = run.status ?? 2;
  });

program.parseAsync(process.argv).catch((err: unknown) => {
  const message =
    err instanceof CliError ? err.message : `unexpected error: ${err instanceof Error ? err.message : String(err)}`;
  if (process.argv.includes('--json')) process.stderr.write(`${JSON.stringify({ error: message })}\n`);
  else process.stderr.write(`billing: ${message}\n`);
  process.exitCode = 1;
});

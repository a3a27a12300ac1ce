// `billing keys create|list|revoke` and `billing signing-key rotate-kek`: the operator's side of
// merchant credentials, through the same verbs as the HTTP routes, as the `system` actor.
import type { Command } from 'commander';
import { apiKeyJson, CreateApiKeyBody, KeyParams } from '../schemas/api-keys.ts';
import { IdParams } from '../schemas/common.ts';
import { json, output, parse, table, withDeps } from './session.ts';

export function keyCommands(program: Command): void {
  const keys = program.command('keys').description("create, list and revoke a merchant's API keys");

  keys
    .command('create')
    .description('create an API key for a merchant and print it (shown this once)')
    .requiredOption('--merchant <id>', 'merchant id')
    .option('--label <label>', 'what the key is for, shown in the list')
    .addOption(json())
    .action(async (o: { merchant: string; label?: string; json?: boolean }) => {
      const { id } = parse(IdParams, { id: o.merchant });
      const { label } = parse(CreateApiKeyBody, { label: o.label });
      const issued = await withDeps('keys-create', (d, ctx) =>
        d.accountVerbs.createApiKey({ ctx, input: { merchant_id: id, label } }),
      );
      const key = apiKeyJson(issued.key);
      output(
        Boolean(o.json),
        { api_key: issued.secret, key },
        () => `API key created: ${key.id} ${key.prefix}…\nAPI key (shown once, store it now): ${issued.secret}`,
      );
    });

  keys
    .command('list')
    .description("list a merchant's live API keys (never the keys themselves)")
    .requiredOption('--merchant <id>', 'merchant id')
    .addOption(json())
    .action(async (o: { merchant: string; json?: boolean }) => {
      const { id } = parse(IdParams, { id: o.merchant });
      const rows = (
        await withDeps('keys-list', (d, ctx) => d.accountVerbs.listApiKeys({ ctx, input: { merchant_id: id } }))
      ).map(apiKeyJson);
      output(Boolean(o.json), { keys: rows }, () =>
        table(
          ['ID', 'PREFIX', 'LABEL', 'CREATED', 'LAST_USED'],
          rows.map((k) => [k.id, k.prefix, k.label ?? '', k.created_at, k.last_used_at ?? '-']),
        ),
      );
    });

  keys
    .command('revoke')
    .description('revoke an API key: refused from now on')
    .requiredOption('--merchant <id>', 'merchant id')
    .argument('<key_id>', 'key id (from `billing keys list`)')
    .addOption(json())
    .action(async (keyId: string, o: { merchant: string; json?: boolean }) => {
      const params = parse(KeyParams, { id: o.merchant, key_id: keyId });
      const revoked = await withDeps('keys-revoke', (d, ctx) =>
        d.accountVerbs.revokeApiKey({ ctx, input: { merchant_id: params.id, key_id: params.key_id } }),
      );
      const key = { ...apiKeyJson(revoked), revoked_at: (revoked.revoked_at as Date).toISOString() };
      output(Boolean(o.json), { key }, () => `API key revoked: ${key.id} ${key.prefix}…`);
    });

  const signing = program.command('signing-key').description("merchants' stored signing keys");

  signing
    .command('rotate-kek')
    .description('re-encrypt every stored signing key under the first key of SIGNING_KEY_ENCRYPTION_KEY')
    .addOption(json())
    .action(async (o: { json?: boolean }) => {
      const result = await withDeps('signing-key-rotate-kek', (d) => d.accountVerbs.rotateKek());
      output(Boolean(o.json), result, () => {
        const lines = [`Re-encrypted ${result.rewrapped} signing key(s) under "${result.primaryKekId}".`];
        if (result.unreadable.length) {
          lines.push(
            `Could not open ${result.unreadable.length} (their key-encryption key is not listed): ${result.unreadable.join(', ')}`,
          );
        }
        return lines.join('\n');
      });
      if (result.unreadable.length) process.exitCode = 1;
    });
}

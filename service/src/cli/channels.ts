// `billing channels create --count N` and `billing channels list`: the pool of channel accounts
// (issue 14). New channels are usable by every running replica within 2 s, without a restart.
import type { Command } from 'commander';
import type { ChannelFunding } from '../billing/pulls/channels-port.ts';
import { CliError, cliConfig, json, output, withDeps } from './session.ts';

export function channelCommands(program: Command): void {
  const channels = program.command('channels').description('channel accounts: transaction sources for pulls');

  channels
    .command('create')
    .description('create, fund and store N channel accounts (secrets sealed under SIGNING_KEY_ENCRYPTION_KEY)')
    .requiredOption('--count <n>', 'how many (1-1000)')
    .option('--friendbot <url>', 'fund each with a friendbot (testnet: https://friendbot.stellar.org)')
    .option('--devnet-control <url>', "fund each through the local network's control API (its controlUrl)")
    .option('--starting-balance <xlm>', 'XLM each gets from FEE_SOURCE_SECRET by createAccount (the default way)', '5')
    .addOption(json())
    .action(
      async (o: {
        count: string;
        friendbot?: string;
        devnetControl?: string;
        startingBalance: string;
        json?: boolean;
      }) => {
        const count = Number(o.count);
        if (!Number.isInteger(count) || count < 1 || count > 1000)
          throw new CliError('--count must be a whole number from 1 to 1000');
        const config = cliConfig();
        let funding: ChannelFunding;
        if (o.friendbot) funding = { kind: 'friendbot', url: o.friendbot };
        else if (o.devnetControl) funding = { kind: 'devnet', controlUrl: o.devnetControl };
        else {
          const funder = config.feeSourceSecret?.reveal();
          if (!funder)
            throw new CliError(
              'No way to fund the channels: set FEE_SOURCE_SECRET (createAccount), or pass --friendbot or --devnet-control',
            );
          funding = {
            kind: 'create-account',
            rpcUrl: config.sorobanRpcUrl,
            passphrase: config.networkPassphrase,
            funderSecret: funder,
            startingBalance: o.startingBalance,
          };
        }
        // Sealed first inside the verb: without SIGNING_KEY_ENCRYPTION_KEY nothing is funded.
        const created = await withDeps('channels-create', (d) => d.pullVerbs.addChannels({ count, funding }));
        output(
          Boolean(o.json),
          { channels: created.added, total: created.counts.total },
          () => `Added ${created.added.length} channel accounts; the pool now has ${created.counts.total}.`,
        );
      },
    );

  channels
    .command('list')
    .description('how many channel accounts there are and how many are leased')
    .addOption(json())
    .action(async (o: { json?: boolean }) => {
      const counts = await withDeps('channels-list', (d) => d.repos.channels.counts());
      output(Boolean(o.json), counts, () => `${counts.total} channel accounts, ${counts.leased} leased`);
    });
}

// Adds channel accounts to the pool (`billing channels create --count N`): new keys, sealed before
// anything is funded (without SIGNING_KEY_ENCRYPTION_KEY nothing is spent), funded on the network,
// then stored with their sequence numbers where they could be read. Running replicas lease them
// at their next look, without a restart.
import type { SecretBox } from '../signing-keys/signing-keys-port.ts';
import { type ChannelAccounts, type ChannelFunding, type ChannelsRepo, channelSealContext } from './channels-port.ts';

export function makeAddChannels(deps: {
  channels: Pick<ChannelsRepo, 'insert' | 'counts'>;
  accounts: ChannelAccounts;
  box: Pick<SecretBox, 'seal'>;
}) {
  return async function addChannels(input: { count: number; funding: ChannelFunding }) {
    const keys = deps.accounts.newKeys(input.count);
    const sealed = keys.map((k) => ({
      publicKey: k.publicKey,
      sealed: deps.box.seal(k.secret, channelSealContext(k.publicKey)),
    }));
    await deps.accounts.fund(keys, input.funding);
    // Best effort: a channel whose number is unknown has it read at its first lease.
    const sequences = await deps.accounts
      .readSequences(keys.map((k) => k.publicKey))
      .catch(() => new Map<string, bigint>());
    await deps.channels.insert(sealed.map((c) => ({ ...c, sequence: sequences.get(c.publicKey) })));
    return { added: keys.map((k) => k.publicKey), counts: await deps.channels.counts() };
  };
}

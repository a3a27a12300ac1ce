import type { Method } from '../jsonrpc.ts';
import { PROTOCOL_VERSION } from '../../ledger/header.ts';

// No friendbotUrl: funding goes through POST /control/fund, not the friendbot protocol.
export const getNetwork: Method = (net) => ({ passphrase: net.passphrase, protocolVersion: PROTOCOL_VERSION });

export const getVersionInfo: Method = () => ({
  version: 'billing-devnet',
  commitHash: '',
  buildTimestamp: '',
  captiveCoreVersion: '',
  protocolVersion: PROTOCOL_VERSION,
});

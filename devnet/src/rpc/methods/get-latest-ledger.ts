import type { Method } from '../jsonrpc.ts';
import { PROTOCOL_VERSION } from '../../ledger/header.ts';

export const getLatestLedger: Method = (net) => ({
  id: net.latest.hash.toString('hex'),
  sequence: net.latest.sequence,
  protocolVersion: PROTOCOL_VERSION,
  closeTime: String(net.latest.closeTime),
  headerXdr: net.latest.headerXdr,
  metadataXdr: net.latest.metadataXdr,
});

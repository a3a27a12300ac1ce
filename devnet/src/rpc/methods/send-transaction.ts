import { invalidParams, type Method } from '../jsonrpc.ts';
import { submitTransaction } from '../../tx/submit.ts';

export const sendTransaction: Method = (net, params) => {
  if (typeof params.transaction !== 'string') throw invalidParams('invalid_xdr');
  let outcome: ReturnType<typeof submitTransaction>;
  try {
    outcome = submitTransaction(net, params.transaction);
  } catch {
    throw invalidParams('invalid_xdr');
  }
  return {
    status: outcome.status,
    hash: outcome.hash,
    latestLedger: net.latest.sequence,
    latestLedgerCloseTime: String(net.latest.closeTime),
    ...(outcome.status === 'ERROR' && { errorResultXdr: outcome.result.toXdr('base64') }),
  };
};

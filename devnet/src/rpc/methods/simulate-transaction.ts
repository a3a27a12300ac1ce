import type { Method } from '../jsonrpc.ts';
import { simulateTransaction as simulate, type SimulateParams } from '../../tx/simulate.ts';

// Failures travel inside a successful JSON-RPC result as `error`, never as a JSON-RPC error.
export const simulateTransaction: Method = (net, params) => simulate(net, params as SimulateParams);

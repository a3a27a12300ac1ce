// The host's error value: Error(<Type>, <Code>) exactly as soroban-env-host prints it.
import { xdr } from '@stellar/stellar-sdk';

export type ErrorType =
  | 'Contract'
  | 'WasmVm'
  | 'Context'
  | 'Storage'
  | 'Object'
  | 'Crypto'
  | 'Events'
  | 'Budget'
  | 'Value'
  | 'Auth';
export type ErrorCode =
  | 'ArithDomain'
  | 'IndexBounds'
  | 'InvalidInput'
  | 'MissingValue'
  | 'ExistingValue'
  | 'ExceededLimit'
  | 'InvalidAction'
  | 'InternalError'
  | 'UnexpectedType'
  | 'UnexpectedSize';

/** Thrown through contract code; the host turns it into the simulation error text or a TRAPPED result. */
export class HostError extends Error {
  readonly errorType: ErrorType;
  readonly errorCode: ErrorCode | number;
  constructor(errorType: ErrorType, errorCode: ErrorCode | number) {
    super(describeError(errorType, errorCode));
    this.errorType = errorType;
    this.errorCode = errorCode;
  }
  toScVal(): xdr.ScVal {
    return xdr.ScVal.scvError(toScError(this.errorType, this.errorCode));
  }
}

export function describeError(t: ErrorType, c: ErrorCode | number): string {
  return typeof c === 'number' ? `Error(${t}, #${c})` : `Error(${t}, ${c})`;
}

export function toScError(t: ErrorType, c: ErrorCode | number): xdr.ScError {
  if (t === 'Contract') return xdr.ScError.sceContract(Number(c));
  const code = xdr.ScErrorCode.fromName(`scec${c}` as xdr.ScErrorCode['name']);
  const make = (xdr.ScError as unknown as Record<string, (c: xdr.ScErrorCode) => xdr.ScError>)[`sce${t}`];
  return make.call(xdr.ScError, code);
}

/** Reverse of toScError, used when printing an ScVal::Error inside event data. */
export function fromScError(e: xdr.ScError): string {
  if (e.type === 'sceContract') return describeError('Contract', e.contractCode);
  const t = e.type.replace(/^sce/, '') as ErrorType;
  return describeError(t, e.code.name.replace(/^scec/, '') as ErrorCode);
}

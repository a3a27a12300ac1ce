// Which side of the token transfer failed. A pull moves the vault's token from the subscriber to
// the merchant through the Stellar Asset Contract, whose G-account holders keep trustlines; the
// SAC raises the same codes for either side (rs-soroban-env, stellar_asset_contract/balance.rs):
//   #13 TrustlineMissingError  "trustline entry is missing for account" [account]
//   #10 BalanceError           "resulting balance is not within the allowed range" [min, new, max]
//                              — new < min on the sender (not enough), new > max on the receiver
//                              (over its trustline limit); "balance is not sufficient to spend" for
//                              contract-data balances
//   #11 BalanceDeauthorizedError "balance is deauthorized" (no argument: the side is read from
//                              the merchant's trustline flags)
// A merchant-side problem is the merchant's to fix, so it gets its own code and says what to do.
import { Address, scValToNative, type xdr } from '@stellar/stellar-sdk';
import type { PullRejectionCode } from '../billing/pulls/vault-gateway.ts';
import { errorEventData, type SimulationFailure } from './error-events.ts';

export const BALANCE_ERROR = 10;
export const DEAUTHORIZED_ERROR = 11;
export const TRUSTLINE_MISSING_ERROR = 13;

export type HolderCode = Extract<
  PullRejectionCode,
  'insufficient_balance' | 'merchant_trustline_missing' | 'merchant_over_limit' | 'merchant_not_authorized'
>;

export interface HolderCause {
  code: HolderCode;
  /** What happened and, for the merchant's side, what to do. */
  detail?: string;
}

function argsOf(data: xdr.ScVal): unknown[] {
  const items = data.type === 'scvVec' ? (data.vec ?? []) : [data];
  return items.map((v) => (v.type === 'scvAddress' ? Address.fromScAddress(v.address).toString() : scValToNative(v)));
}

/**
 * The side of a #10 / #11 / #13 raised by `token`. For #11, `merchantAuthorized` is what the
 * merchant's trustline says (undefined: it could not be read). undefined: not a holder error.
 */
export function holderCause(
  failure: SimulationFailure,
  token: string,
  merchant: string,
  merchantAuthorized?: boolean,
): HolderCause | undefined {
  const [missing] = errorEventData(failure.events, TRUSTLINE_MISSING_ERROR, token).map(argsOf);
  if (missing) {
    if (missing[1] === merchant) {
      return {
        code: 'merchant_trustline_missing',
        detail: `the merchant's account ${merchant} has no trustline for the token: add one`,
      };
    }
    return { code: 'insufficient_balance', detail: "the subscriber's account has no trustline for the token" };
  }
  const [balance] = errorEventData(failure.events, BALANCE_ERROR, token).map(argsOf);
  if (balance) {
    const [message, , next, max] = balance;
    if (
      message === 'resulting balance is not within the allowed range' &&
      typeof next === 'bigint' &&
      typeof max === 'bigint' &&
      next > max
    ) {
      return {
        code: 'merchant_over_limit',
        detail: `the payment would take the merchant's trustline over its limit (${max}): raise the limit or move funds out`,
      };
    }
    return { code: 'insufficient_balance' };
  }
  if (errorEventData(failure.events, DEAUTHORIZED_ERROR, token).length > 0) {
    if (merchantAuthorized === false) {
      return {
        code: 'merchant_not_authorized',
        detail: `the token's issuer has not authorized the merchant's trustline (${merchant})`,
      };
    }
    if (merchantAuthorized === true)
      return { code: 'insufficient_balance', detail: "the token's issuer has deauthorized the subscriber's balance" };
  }
  return undefined;
}

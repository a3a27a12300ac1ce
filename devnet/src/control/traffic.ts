// Other accounts' transactions, as a real network has around the ones under test: token
// transfers between traffic accounts (pull-unrelated), signed with each credential arm in
// turn and spread over the coming ledgers. They bypass sendTransaction (so faults and
// GET /control/transactions never see them) and go through the same ledger close as any
// other transaction, so their envelopes, results and meta land in the ledger's meta.
//
// - sourceAccount: the sender is the transaction source (SOROBAN_CREDENTIALS_SOURCE_ACCOUNT);
// - address / addressV2: a channel account submits, the sender signs its entry over preimage 9
//   (legacy ADDRESS) or 10 (CAP-71 ADDRESS_V2);
// - addressWithDelegates: the sender is a custom account (a smart wallet C… that the devnet does
//   not run) whose entry carries a delegate's signature (CAP-71 WITH_DELEGATES). The devnet
//   cannot execute __check_auth, so these are included and FAILED (INVOKE_HOST_FUNCTION_TRAPPED,
//   Error(Auth, InvalidAction)): valid ledger content, for decoding only.
import {
  Account,
  hash,
  type Keypair,
  Operation,
  StrKey,
  TimeoutInfinite,
  TransactionBuilder,
  xdr,
} from '@stellar/stellar-sdk';
import { accountEntry, FRIENDBOT_XLM, seqOf } from '../ledger/accounts.ts';
import { deriveKeypair } from '../network/genesis.ts';
import type { QueuedTx } from '../ledger/history.ts';
import { accountKey, contractDataKey, keyId } from '../ledger/keys.ts';
import { balanceKey } from '../contracts/token.ts';
import { AUTHORIZED_FLAG, I64_MAX, openTrustline, readTrustline, trustlineKey } from '../contracts/classic.ts';
import type { Network } from '../network/network.ts';
import { accountSignature, addressCredentials, signaturePayload } from '../host/auth-credentials.ts';
import { scAddress } from '../ledger/addresses.ts';
import { addr, i128 } from '../host/scval.ts';
import { simulateTransaction } from '../tx/simulate.ts';
import { fullHash, txHash } from '../tx/signatures.ts';
import { parseEnvelope } from '../tx/parse.ts';
import { queueFields } from '../tx/queue.ts';

export const TRAFFIC_ARMS = ['sourceAccount', 'address', 'addressV2', 'addressWithDelegates'] as const;
export type TrafficArm = (typeof TRAFFIC_ARMS)[number];

export type TrafficTx = {
  hash: string;
  /** The ledger it is scheduled for. */
  ledger: number;
  credentials: TrafficArm;
  source: string;
  from: string;
  to: string;
  amount: string;
  expected: 'SUCCESS' | 'FAILED';
};

export type TrafficRequest = { count: number; ledgers?: number };

export const MAX_TRAFFIC = 1000;
const TRAFFIC_BALANCE = 10n ** 15n;

export function parseTraffic(body: Record<string, unknown>): TrafficRequest {
  const count = Number(body.count);
  if (!Number.isInteger(count) || count < 1 || count > MAX_TRAFFIC)
    throw new Error(`count must be an integer from 1 to ${MAX_TRAFFIC}`);
  if (body.ledgers === undefined) return { count };
  const ledgers = Number(body.ledgers);
  if (!Number.isInteger(ledgers) || ledgers < 1) throw new Error('ledgers must be a positive integer');
  return { count, ledgers };
}

/** Mints raw token units, as the token admin, outside any ledger (like POST /control/mint). */
export type Minter = (to: string, amount: bigint) => void;

export function addTraffic(net: Network, req: TrafficRequest, mint: Minter): TrafficTx[] {
  const ledgers = Math.min(req.ledgers ?? Math.ceil(req.count / TRAFFIC_ARMS.length), req.count);
  const perLedger = Math.ceil(req.count / ledgers);
  const first = net.latest.sequence + 1;
  const out: TrafficTx[] = [];
  for (let i = 0; i < req.count; i++) {
    const arm = TRAFFIC_ARMS[i % TRAFFIC_ARMS.length];
    // Consecutive transactions share a ledger (so each ledger mixes the arms); the position in
    // the ledger picks the accounts, so no source appears twice in one ledger.
    const slot = i % perLedger;
    out.push(buildOne(net, mint, arm, slot, first + Math.floor(i / perLedger), BigInt(i + 1)));
  }
  return out;
}

function trafficAccount(net: Network, label: string): Keypair {
  const kp = deriveKeypair(`traffic/${label}`);
  const id = keyId(accountKey(kp.publicKey()));
  if (!net.state.get(id)) {
    const seq = net.latest.sequence;
    net.state.set(id, { data: accountEntry(kp.publicKey(), FRIENDBOT_XLM, BigInt(seq) << 32n), lastModified: seq });
    // Holders of the USDC SAC need a trustline, as on the real network.
    openTrustline(net.state, seq, kp.publicKey(), net.genesis.asset, { limit: I64_MAX, flags: AUTHORIZED_FLAG });
  }
  return kp;
}

/** A C… id for the smart wallet of slot n: derived, never deployed. */
function walletId(n: number): string {
  return StrKey.encodeContract(hash(Buffer.from(`billing-devnet:traffic/smart-wallet/${n}`)));
}

function ensureTokens(net: Network, mint: Minter, holder: string): void {
  if (StrKey.isValidEd25519PublicKey(holder)) {
    const tl = net.state.get(keyId(trustlineKey(holder, net.genesis.asset)));
    if (!tl || readTrustline(tl.data).balance === 0n) mint(holder, TRAFFIC_BALANCE);
  } else if (!net.state.get(keyId(contractDataKey(net.genesis.token, balanceKey(holder), 'persistent')))) {
    mint(holder, TRAFFIC_BALANCE);
  }
}

function buildOne(
  net: Network,
  mint: Minter,
  arm: TrafficArm,
  slot: number,
  ledger: number,
  amount: bigint,
): TrafficTx {
  const { token } = net.genesis;
  const to = trafficAccount(net, `to/${slot}`).publicKey();
  const holder = arm === 'sourceAccount' ? trafficAccount(net, `source/${slot}`) : trafficAccount(net, `from/${slot}`);
  const source = arm === 'sourceAccount' ? holder : trafficAccount(net, `channel/${slot}`);
  const from = arm === 'addressWithDelegates' ? walletId(slot) : holder.publicKey();
  ensureTokens(net, mint, from);

  const { seq, includeAt } = nextSlot(net, source.publicKey(), ledger);
  const build = (auth?: xdr.SorobanAuthorizationEntry[], data?: string) => {
    const builder = new TransactionBuilder(new Account(source.publicKey(), (seq - 1n).toString()), {
      // An inclusion fee of 100; the builder adds the resource fee of setSorobanData (SDK 17).
      fee: '100',
      networkPassphrase: net.passphrase,
    })
      .addOperation(
        Operation.invokeContractFunction({
          contract: token,
          function: 'transfer',
          args: [addr(from), addr(to), i128(amount)],
          auth,
        }),
      )
      .setTimeout(TimeoutInfinite);
    if (data) builder.setSorobanData(data);
    return builder.build();
  };

  // Footprint, resources and the auth to sign come from the devnet's own simulation, as a
  // wallet would get them from simulateTransaction.
  const sim = simulateTransaction(net, { transaction: build().toXDR(), useUpgradedAuth: arm !== 'address' });
  if (typeof sim.error === 'string') throw new Error(`traffic simulation failed: ${sim.error}`);
  const recorded = (sim.results as { auth: string[] }[])[0].auth.map((a) =>
    xdr.SorobanAuthorizationEntry.fromXdr(a, 'base64'),
  );
  const auth = arm === 'sourceAccount' ? recorded : recorded.map((e) => sign(net, e, arm, holder, includeAt + 100));
  const tx = build(auth, String(sim.transactionData));
  tx.sign(source);

  const envelopeXdr = tx.toXDR();
  const parsed = parseEnvelope(envelopeXdr);
  const txHex = txHash(net.networkId, parsed.tx).toString('hex');
  const queued: QueuedTx = {
    ...queueFields(parsed, envelopeXdr),
    hash: txHex,
    fullHash: fullHash(parsed.envelope),
    includeAt,
    age: 0,
    submission: {
      hash: txHex,
      source: source.publicKey(),
      function: 'transfer',
      contract: token,
      args: [from, to, amount.toString()],
      status: 'queued',
    },
    traffic: true,
  };
  net.queue.push(queued);
  return {
    hash: txHex,
    ledger: includeAt,
    credentials: arm,
    source: source.publicKey(),
    from,
    to,
    amount: amount.toString(),
    expected: arm === 'addressWithDelegates' ? 'FAILED' : 'SUCCESS',
  };
}

/** The next sequence number of a source and the first ledger ≥ `wanted` after its queued ones. */
function nextSlot(net: Network, source: string, wanted: number): { seq: bigint; includeAt: number } {
  const account = net.state.get(keyId(accountKey(source)))!;
  const mine = net.queue.filter((q) => q.source === source);
  const seq = seqOf(account.data) + 1n + BigInt(mine.length);
  const after = mine.reduce((m, q) => Math.max(m, q.includeAt), 0);
  return { seq, includeAt: Math.max(wanted, after + 1) };
}

/** Signs a recorded entry with the arm under test; the expiration covers the scheduled ledger. */
function sign(
  net: Network,
  entry: xdr.SorobanAuthorizationEntry,
  arm: TrafficArm,
  signer: Keypair,
  expiration: number,
): xdr.SorobanAuthorizationEntry {
  const recorded = addressCredentials(entry.credentials)!;
  const base = new xdr.SorobanAddressCredentials({
    address: recorded.address,
    nonce: recorded.nonce,
    signatureExpirationLedger: expiration,
    signature: xdr.ScVal.scvVoid(),
  });
  if (arm === 'addressWithDelegates') {
    // The delegate signs the same payload as the top-level address would (CAP-71): preimage 10,
    // bound to the wallet's address.
    const unsigned = xdr.SorobanCredentials.sorobanCredentialsAddressWithDelegates(
      new xdr.SorobanAddressCredentialsWithDelegates({ addressCredentials: base, delegates: [] }),
    );
    const payload = signaturePayload(net.networkId, unsigned, entry.rootInvocation);
    const credentials = xdr.SorobanCredentials.sorobanCredentialsAddressWithDelegates(
      new xdr.SorobanAddressCredentialsWithDelegates({
        addressCredentials: base,
        delegates: [
          new xdr.SorobanDelegateSignature({
            address: scAddress(signer.publicKey()),
            signature: accountSignature(signer, payload),
            nestedDelegates: [],
          }),
        ],
      }),
    );
    return new xdr.SorobanAuthorizationEntry({ credentials, rootInvocation: entry.rootInvocation });
  }
  const unsigned =
    arm === 'address'
      ? xdr.SorobanCredentials.sorobanCredentialsAddress(base)
      : xdr.SorobanCredentials.sorobanCredentialsAddressV2(base);
  const payload = signaturePayload(net.networkId, unsigned, entry.rootInvocation);
  const signed = new xdr.SorobanAddressCredentials({ ...base, signature: accountSignature(signer, payload) });
  const credentials =
    arm === 'address'
      ? xdr.SorobanCredentials.sorobanCredentialsAddress(signed)
      : xdr.SorobanCredentials.sorobanCredentialsAddressV2(signed);
  return new xdr.SorobanAuthorizationEntry({ credentials, rootInvocation: entry.rootInvocation });
}

// A stand-in for the VaultGateway port (not for rpc.Server): a chain whose every outcome the test
// scripts — confirm, fail on-chain, drop, refuse at simulation or submission, or lose the answer
// after sending (a crash or a network error) while the transaction may still land. Used only by
// the property test of the billing rules; every chain test runs against the local network.
import {
  PullRejection,
  type ForgottenOutcome,
  type Inspection,
  type MerchantKey,
  type SignedPull,
  type TxObservation,
  type VaultGateway,
} from '../../src/billing/pulls/vault-gateway.ts';
import type { Clock } from '../../src/billing/clock.ts';

export type Behaviour =
  | 'confirm'
  | 'fail'
  | 'drop'
  | 'simulation-error'
  | 'rejected'
  | 'lost-but-lands'
  | 'lost-never-lands';

interface ChainTx {
  status: 'SUCCESS' | 'FAILED' | 'NOT_FOUND';
  maxTime: number;
  includedAt?: number;
}

export class ScriptedChain implements VaultGateway {
  readonly txs = new Map<string, ChainTx>();
  readonly script: Behaviour[] = [];
  #clock: Clock;
  #merchant: MerchantKey;
  #secret: string;
  #counter = 0;

  constructor(clock: Clock, merchant: { publicKey: string; secret: string }) {
    this.#clock = clock;
    this.#merchant = { publicKey: merchant.publicKey };
    this.#secret = merchant.secret;
  }

  #nowSeconds(): number {
    return Math.floor(this.#clock.now().getTime() / 1000);
  }

  /** Inclusion times (unix s) of every pull that moved funds. */
  successes(): number[] {
    return [...this.txs.values()]
      .filter((t) => t.status === 'SUCCESS')
      .map((t) => t.includedAt!)
      .sort((a, b) => a - b);
  }

  parseSecret(secret: string): MerchantKey | null {
    return secret === this.#secret ? this.#merchant : null;
  }

  serialize<T>(_source: string, fn: () => Promise<T>): Promise<T> {
    return fn();
  }

  async preparePull(): Promise<SignedPull> {
    const behaviour = this.script[0] ?? 'confirm';
    if (behaviour === 'simulation-error') {
      this.script.shift();
      throw new PullRejection('simulation_failed', 'HostError: Error(WasmVm, InvalidAction)');
    }
    this.#counter++;
    const hash = crypto.randomUUID().replaceAll('-', '').padEnd(64, '0');
    return {
      hash,
      envelopeXdr: 'AAAA',
      maxTime: this.#nowSeconds() + 30,
      source: this.#merchant.publicKey,
      sequence: String(this.#counter),
      minLedger: 1,
      inclusionFee: '100',
    };
  }

  async send(pull: SignedPull): Promise<void> {
    const behaviour = this.script.shift() ?? 'confirm';
    const now = this.#nowSeconds();
    if (behaviour === 'rejected')
      throw new PullRejection('submission_failed', 'sendTransaction answered ERROR: txInternalError');
    const lands = behaviour === 'confirm' || behaviour === 'fail' || behaviour === 'lost-but-lands';
    this.txs.set(pull.hash, {
      status: !lands ? 'NOT_FOUND' : behaviour === 'fail' ? 'FAILED' : 'SUCCESS',
      maxTime: pull.maxTime,
      includedAt: lands ? now : undefined,
    });
    if (behaviour.startsWith('lost')) {
      throw new PullRejection('submission_failed', 'socket hang up', { definitelyNotSent: false });
    }
  }

  async observe(hash: string): Promise<TxObservation> {
    const tx = this.txs.get(hash);
    const base = { latestLedger: 1, latestLedgerCloseTime: this.#nowSeconds(), oldestLedger: 1 };
    if (!tx || tx.status === 'NOT_FOUND') return { status: 'NOT_FOUND', ...base };
    return { status: tx.status, ledger: 1, ...base };
  }

  waitForOutcome(hash: string): Promise<TxObservation> {
    return this.observe(hash);
  }

  /** What inspect() shows (pre-flight): a vault that matches the test's plan, with enough allowance and balance. */
  inspection: Inspection | undefined;

  async inspect(): Promise<Inspection> {
    if (!this.inspection)
      throw new PullRejection('chain_unavailable', 'Soroban RPC unavailable: the scripted chain has no inspection');
    return this.inspection;
  }

  async networkNow(): Promise<number> {
    return this.#nowSeconds();
  }

  /** Never asked here: the scripted RPC remembers every ledger (oldestLedger 1). */
  async establishForgotten(): Promise<ForgottenOutcome> {
    return 'unknown';
  }
}

// The seeded fault schedule: each kind arrives as a Poisson process at its rate (per minute of the
// fault phase), and every kind happens at least once whatever the length, so even the 2-minute
// profile meets all of them. The same seed gives the same schedule.
import type { Rng } from './rng.ts';

export const FAULT_RATES = {
  // between the replicas and the RPC (the soak's RPC proxy)
  'rpc-connection-reset': 6, // the next 1–3 RPC requests get their connection reset
  'rpc-slow-answer': 6, // the next 2–5 answers arrive 1.5–5 s late (RPC_TIMEOUT_MS is 3 s)
  'rpc-unavailable': 0.5, // every RPC request answers 503 for 5–20 s
  'send-answer-lost': 4, // sendTransaction reaches the network, its answer is lost
  // in the network (the devnet's fault control)
  'send-try-again-later': 4, // the next 1–3 sendTransaction answer TRY_AGAIN_LATER
  'send-error': 3, // the next 1–2 sendTransaction answer ERROR
  'tx-dropped': 3, // the next accepted transaction is never included
  'tx-delayed': 3, // the next 1–2 accepted transactions wait 1–4 more ledgers
  'tx-failed': 2, // the next applied transaction fails on chain
  'ledger-pause': 0.5, // ledger closing paused for 5–15 s
  // processes
  'replica-sigkill': 0.5, // a replica killed -9, restarted 1–5 s later
  'replica-sigterm-polling': 0.5, // a replica with a request in flight (a pull being polled) gets SIGTERM, restarted
  'postgres-restart': 0.25, // PostgreSQL stopped (immediate) and started 1–4 s later
  // subscribers
  'subscriber-revokes': 1, // a subscriber approves 0 to the vault
  'subscriber-empties': 1, // a subscriber moves its whole balance away
} as const;

export type FaultKind = keyof typeof FAULT_RATES;

export interface ScheduledFault {
  atMs: number;
  kind: FaultKind;
}

export function schedule(rng: Rng, durationMs: number): ScheduledFault[] {
  const out: ScheduledFault[] = [];
  for (const kind of Object.keys(FAULT_RATES) as FaultKind[]) {
    const r = rng.fork(kind);
    // Once for sure, in the first 80 % of the phase so its effects land before the drain.
    out.push({ atMs: r.between(0.05, 0.8) * durationMs, kind });
    for (let t = r.expMs(FAULT_RATES[kind]); t < durationMs * 0.9; t += r.expMs(FAULT_RATES[kind]))
      out.push({ atMs: t, kind });
  }
  return out.sort((x, y) => x.atMs - y.atMs);
}

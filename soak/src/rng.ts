// A seeded PRNG (mulberry32): the same seed gives the same fault schedule, plans and driver choices.
export class Rng {
  private s: number;
  constructor(seed: number) {
    this.s = seed >>> 0 || 0x9e3779b9;
  }
  next(): number {
    this.s = (this.s + 0x6d2b79f5) >>> 0;
    let t = this.s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  between(lo: number, hi: number): number {
    return lo + (hi - lo) * this.next();
  }
  int(lo: number, hi: number): number {
    return Math.floor(this.between(lo, hi + 1));
  }
  pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.next() * xs.length)]!;
  }
  /** Exponential waiting time for a Poisson process of `perMinute` events (ms). */
  expMs(perMinute: number): number {
    return (-Math.log(1 - this.next()) / perMinute) * 60_000;
  }
  fork(label: string): Rng {
    let h = this.s ^ 0x811c9dc5;
    for (const c of label) h = Math.imul(h ^ c.charCodeAt(0), 16777619);
    return new Rng(h >>> 0);
  }
}

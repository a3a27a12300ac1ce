// Fault injection: each armed fault applies to the next `count` matching events.

export type FaultSpec =
  | { kind: 'drop'; count?: number }
  | { kind: 'fail-next'; count?: number }
  | { kind: 'delay'; ledgers: number; count?: number }
  | { kind: 'send'; status: 'TRY_AGAIN_LATER' | 'ERROR'; count?: number };

type Armed = FaultSpec & { remaining: number };

export class Faults {
  private armed: Armed[] = [];

  add(spec: FaultSpec): void {
    this.armed.push({ ...spec, remaining: spec.count ?? 1 });
  }

  clear(): void {
    this.armed = [];
  }

  list(): Armed[] {
    return this.armed.map((a) => ({ ...a }));
  }

  /** Consumes one use of the oldest armed fault of this kind. */
  take<K extends FaultSpec['kind']>(kind: K): Extract<FaultSpec, { kind: K }> | undefined {
    const i = this.armed.findIndex((a) => a.kind === kind);
    if (i < 0) return undefined;
    const fault = this.armed[i];
    fault.remaining -= 1;
    if (fault.remaining <= 0) this.armed.splice(i, 1);
    return fault as unknown as Extract<FaultSpec, { kind: K }>;
  }
}

export function parseFault(body: unknown): FaultSpec {
  const b = (body ?? {}) as Record<string, unknown>;
  const count = b.count === undefined ? undefined : Number(b.count);
  if (count !== undefined && (!Number.isInteger(count) || count < 1))
    throw new Error('count must be a positive integer');
  switch (b.kind) {
    case 'drop':
    case 'fail-next':
      return { kind: b.kind, count };
    case 'delay': {
      const ledgers = Number(b.ledgers);
      if (!Number.isInteger(ledgers) || ledgers < 1) throw new Error('ledgers must be a positive integer');
      return { kind: 'delay', ledgers, count };
    }
    case 'send':
      if (b.status !== 'TRY_AGAIN_LATER' && b.status !== 'ERROR')
        throw new Error('status must be TRY_AGAIN_LATER or ERROR');
      return { kind: 'send', status: b.status, count };
    default:
      throw new Error('kind must be one of drop, fail-next, delay, send');
  }
}

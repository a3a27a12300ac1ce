// A read cache for the embedded database (PGlite), where this process is the only writer: PGlite
// runs in our process and locks its data directory, and every statement, ours or a transaction's,
// passes through db.ts. So "nothing was written since this row was read" is something this process
// can know exactly, and a hot read (GET /plans/{id}, the first page every user meets) can skip the
// database. PostgreSQL gets no cache: other replicas and operators write there.
//
// The rule is deliberately coarse: any statement that may have written anything, to any table,
// starts a new generation, and an entry is served only in the generation it was read in. A read
// takes the generation before its query is issued, so a write that lands while it runs makes the
// entry stale at once (PGlite runs statements one at a time, transactions included).

const READ_ONLY = /^\s*select\b/i;
const DML = /^\s*(insert|update|delete)\b/i;

/** Counts writes: a new generation after every statement that may have changed a row. */
export class WriteWatch {
  #generation = 0;

  get generation(): number {
    return this.#generation;
  }

  /**
   * `affected` is the statement's row count when known. A SELECT writes nothing; an INSERT, UPDATE
   * or DELETE that touched no row wrote nothing (pollers claim work this way all day); anything else
   * (a CTE, DDL, a migration file, a SELECT … calling a function) counts as a write.
   */
  saw(text: string, affected: number | undefined): void {
    if (READ_ONLY.test(text)) return;
    if (affected === 0 && DML.test(text)) return;
    this.#generation++;
  }
}

/** Bounded: a flood of reads of unknown ids empties the cache rather than growing it. */
const MAX_ENTRIES = 10_000;

export class ReadCache {
  #writes: WriteWatch;
  #entries = new Map<string, { generation: number; value: unknown }>();

  constructor(writes: WriteWatch) {
    this.#writes = writes;
  }

  /**
   * The value read in the current generation, or `load()`'s. Callers must not mutate what they get:
   * it is shared by every reader until the next write.
   */
  async get<T>(key: string, load: () => Promise<T>): Promise<T> {
    const generation = this.#writes.generation;
    const hit = this.#entries.get(key);
    if (hit && hit.generation === generation) return hit.value as T;
    const value = await load();
    if (this.#entries.size >= MAX_ENTRIES) this.#entries.clear();
    this.#entries.set(key, { generation, value });
    return value;
  }
}

// A read cache for the embedded database (PGlite), where this process is the only writer: PGlite
// runs in our process and locks its data directory, and every statement, ours or a transaction's,
// passes through db.ts. So "nothing was written to these tables since this row was read" is
// something this process can know exactly, and a hot read (GET /plans/{id}, the first request every
// new user meets) can skip the database. PostgreSQL gets no cache: other replicas write there.
//
// Each entry names the tables it was read from. A statement that may write counts as a write to
// every one of those tables its text names: SQL cannot change a table without naming it, except
// through triggers and cascades, and none of ours write the cached tables (migrations 0001–0008).
// A read takes the tables' generation before its query is issued, so a write that lands while it
// runs makes the entry stale at once (PGlite runs statements one at a time, transactions included).

const READ_ONLY = /^\s*select\b/i;
const DML = /^\s*(insert|update|delete)\b/i;

/** Counts writes per watched table: a new generation after every statement that may change it. */
export class WriteWatch {
  #tables = new Map<string, { pattern: RegExp; generation: number }>();

  /** Starts watching `table`; statements seen before this cannot matter to entries made after. */
  watch(table: string): void {
    if (!this.#tables.has(table))
      this.#tables.set(table, { pattern: new RegExp(`\\b${table}\\b`, 'i'), generation: 0 });
  }

  /** One number that changes whenever any of `tables` may have been written. */
  stamp(tables: readonly string[]): number {
    let sum = 0;
    for (const t of tables) sum += this.#tables.get(t)?.generation ?? 0;
    return sum;
  }

  /**
   * `affected` is the statement's row count when known. A SELECT writes nothing; a top-level
   * INSERT, UPDATE or DELETE that touched no row wrote nothing. Anything else (a CTE, whose count
   * may be its final SELECT's; DDL; a migration file) writes every watched table it names.
   */
  saw(text: string, affected: number | undefined): void {
    if (READ_ONLY.test(text)) return;
    if (affected === 0 && DML.test(text)) return;
    for (const t of this.#tables.values()) if (t.pattern.test(text)) t.generation++;
  }
}

/** Bounded: a flood of reads of unknown ids empties the cache rather than growing it. */
const MAX_ENTRIES = 10_000;

export class ReadCache {
  #writes: WriteWatch;
  #entries = new Map<string, { stamp: number; value: unknown }>();

  constructor(writes: WriteWatch) {
    this.#writes = writes;
  }

  /**
   * The value read from `tables` since their last write, or `load()`'s. Callers must not mutate
   * what they get: it is shared by every reader until the next write.
   */
  async get<T>(key: string, tables: readonly string[], load: () => Promise<T>): Promise<T> {
    for (const t of tables) this.#writes.watch(t);
    const stamp = this.#writes.stamp(tables);
    const hit = this.#entries.get(key);
    if (hit && hit.stamp === stamp) return hit.value as T;
    const value = await load();
    if (this.#entries.size >= MAX_ENTRIES) this.#entries.clear();
    this.#entries.set(key, { stamp, value });
    return value;
  }
}

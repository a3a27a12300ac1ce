// The embedded database's read cache (storage/read-cache.ts): served only until the next write,
// whoever makes it, and never on PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb, type Db } from '../../src/storage/db.ts';
import { WriteWatch } from '../../src/storage/read-cache.ts';
import { unavailableDb } from '../../src/storage/unavailable-db.ts';
import { guardDb } from '../../src/storage/database-errors.ts';

describe('WriteWatch', () => {
  it('starts a new generation of a table on anything that may have written it, and only then', () => {
    const w = new WriteWatch();
    w.watch('t');
    const after = (text: string, affected: number | undefined) => {
      const before = w.stamp(['t']);
      w.saw(text, affected);
      return w.stamp(['t']) - before;
    };
    expect(after('SELECT * FROM t', 1)).toBe(0);
    expect(after('  select * from t for update', undefined)).toBe(0);
    expect(after('UPDATE t SET name = $1 WHERE id = $2', 0)).toBe(0);
    expect(after('UPDATE t SET name = $1 WHERE id = $2', 1)).toBe(1);
    expect(after('INSERT INTO t VALUES (1)', undefined)).toBe(1);
    expect(after('DELETE FROM t', 3)).toBe(1);
    // A CTE may hide a write behind a final SELECT whose count says nothing about it.
    expect(after('WITH x AS (UPDATE t SET a = 1 RETURNING a) SELECT * FROM x', 0)).toBe(1);
    expect(after('ALTER TABLE t ADD COLUMN b int', 0)).toBe(1);
    // Other tables, and names that merely contain this one, are not this table.
    expect(after('UPDATE t_other SET a = 1', 5)).toBe(0);
    expect(after('WITH due AS (SELECT id FROM q FOR UPDATE) UPDATE q SET a = 1 FROM due', 0)).toBe(0);
  });
});

describe('ReadCache on PGlite', () => {
  let db: Db;
  let loads = 0;
  const read = () =>
    db.readCache!.get('t:1', ['t'], async () => {
      loads++;
      return (await db.query<{ a: number }>('SELECT a FROM t WHERE id = $1', [1])).rows[0]?.a;
    });

  beforeAll(async () => {
    db = await openDb({ kind: 'pglite', dataDir: undefined });
    await db.query('CREATE TABLE t (id int PRIMARY KEY, a int)');
    await db.query('INSERT INTO t VALUES ($1, $2)', [1, 10]);
  });
  afterAll(() => db.close());

  it('answers from memory until a write, then reads again', async () => {
    expect(await read()).toBe(10);
    expect(await read()).toBe(10);
    expect(loads).toBe(1);
    await db.query('UPDATE t SET a = $1 WHERE id = $2', [11, 99]); // touches no row
    expect(await read()).toBe(10);
    expect(loads).toBe(1);
    await db.query('UPDATE t SET a = $1 WHERE id = $2', [12, 1]);
    expect(await read()).toBe(12);
    expect(loads).toBe(2);
  });

  it('ignores writes to other tables', async () => {
    await db.query('CREATE TABLE other (a int)');
    await read();
    const before = loads;
    await db.query('INSERT INTO other VALUES ($1)', [1]);
    expect(await read()).toBe(12);
    expect(loads).toBe(before);
  });

  it('sees a write made inside a transaction, and one that lands while a read runs', async () => {
    await db.transaction((tx) => tx.query('UPDATE t SET a = $1 WHERE id = $2', [13, 1]));
    expect(await read()).toBe(13);
    // The read is issued first but queued behind nothing; the write lands before it is stored.
    const racing = read();
    await db.query('UPDATE t SET a = $1 WHERE id = $2', [14, 1]);
    await racing;
    expect(await read()).toBe(14);
  });

  it('reaches the repositories through the error guard, in and out of transactions', async () => {
    const guarded = guardDb(db);
    expect(guarded.readCache).toBe(db.readCache);
    expect(await guarded.transaction(async (tx) => tx.readCache)).toBe(db.readCache);
  });

  it('is absent where there is no embedded database', () => {
    expect(unavailableDb().readCache).toBeUndefined();
  });
});

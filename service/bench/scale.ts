import type { Options } from './options.ts';
import type { BenchPg } from './pg-setup.ts';
export async function runScale(_o: Options, _pg: BenchPg, log: (s: string) => void): Promise<void> {
  log('scale: not written yet');
}

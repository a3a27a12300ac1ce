// A clock tests set by hand: the service reads "now" only through the Clock port.
import type { Clock } from '../../src/billing/clock.ts';

export interface TestClock extends Clock {
  set(at: Date | string): void;
  advance(seconds: number): void;
}

export function testClock(start: Date | string = '2030-01-01T00:00:00.000Z'): TestClock {
  let current = new Date(start);
  return {
    now: () => new Date(current),
    set: (at) => {
      current = new Date(at);
    },
    advance: (seconds) => {
      current = new Date(current.getTime() + seconds * 1000);
    },
  };
}

/** The service's notion of "now". Injected so tests can pin or move time. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

// Keyset pagination, shared by every repository port that lists.
/**
 * Keyset pagination: a page starts strictly after the sort key of the previous page's last row.
 * `at` is that row's sort timestamp as text with microseconds (a JS Date would drop them and
 * then rows created in the same millisecond could be skipped or repeated).
 */
export interface PageKey {
  at: string;
  id: string;
}

export interface PageRequest {
  limit: number;
  after?: PageKey;
}

/** `next` is null on the last page. */
export interface Page<T> {
  items: T[];
  next: PageKey | null;
}

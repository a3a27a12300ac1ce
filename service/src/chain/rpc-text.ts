// The SDK throws raw JSON-RPC error objects ({code, message}), HTTP client errors and plain
// Errors; merchants get the network's own words, whatever the shape.
export function rpcErrorText(err: unknown): string {
  if (err instanceof Error) return err.message || err.name;
  if (err && typeof err === 'object') {
    const { code, message } = err as { code?: unknown; message?: unknown };
    if (typeof message === 'string') return code === undefined ? message : `${message} (JSON-RPC ${String(code)})`;
  }
  return String(err);
}

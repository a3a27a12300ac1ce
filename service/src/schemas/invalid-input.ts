// What a refused input looks like, whichever door it came through: "Invalid input on <field>:
// <reason>" (spec section 7), naming the first failing field only. The HTTP layer answers it with
// 400 (http/validation.ts, http/error-handler.ts); the CLI prints it and exits 1.
import type { z } from 'zod';

/** Thrown for a refused input; HTTP answers 400 with its message. */
export class InvalidInputError extends Error {
  override name = 'InvalidInputError';
  readonly statusCode = 400;
}

/** "Invalid input on <field>: <reason>" — the spec's validation message (section 7). */
export function invalidInput(field: string, reason: string): string {
  return `Invalid input on ${field}: ${reason}`;
}

export function firstIssueMessage(error: z.ZodError): string {
  const issue = error.issues[0];
  // A root-level issue (a JSON array instead of an object) has no field name: call it "body".
  const field = issue.path.length > 0 ? issue.path.join('.') : 'body';
  return invalidInput(field, issue.message);
}

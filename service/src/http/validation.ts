// Request validation with Zod inside Fastify: every route declares Zod schemas for body and params,
// Fastify runs them before the handler, and a failure becomes one message naming the first failing
// field only (spec section 7), e.g. "Invalid input on name: name cannot be empty".
import type { FastifySchemaCompiler } from 'fastify';
import type { z } from 'zod';
import { invalidInput } from './errors.ts';

/** Thrown (returned) by the validator; the error handler answers 400 with its message. */
export class InvalidInputError extends Error {
  override name = 'InvalidInputError';
  readonly statusCode = 400;
}

export function firstIssueMessage(error: z.ZodError): string {
  const issue = error.issues[0];
  // A root-level issue (a JSON array instead of an object) has no field name: call it "body".
  const field = issue.path.length > 0 ? issue.path.join('.') : 'body';
  return invalidInput(field, issue.message);
}

export const zodValidatorCompiler: FastifySchemaCompiler<z.ZodType> = ({ schema }) => {
  return (data: unknown) => {
    const parsed = schema.safeParse(data);
    return parsed.success ? { value: parsed.data } : { error: new InvalidInputError(firstIssueMessage(parsed.error)) };
  };
};

/**
 * Tool arguments checked by the server itself, so that a refused argument is an INVALID_ARGUMENT
 * result with a recovery like every other error (the SDK would answer its own plain text). The
 * SDK is handed a Standard Schema that publishes the tool's zod schema (its JSON Schema, limits
 * and all, in tools/list) and lets every value through to the handler, which checks it.
 */
import type { StandardSchemaWithJSON } from "@modelcontextprotocol/server";
import type * as z from "zod";
import { ToolError } from "./tool-error.js";

/** The schema as the SDK publishes it, without the SDK's own check. */
export function published(schema: z.ZodObject): StandardSchemaWithJSON<unknown, unknown> {
  return {
    "~standard": {
      version: 1,
      vendor: "recall",
      validate: (value: unknown) => ({ value }),
      jsonSchema: schema["~standard"].jsonSchema,
    },
  } as StandardSchemaWithJSON<unknown, unknown>;
}

/**
 * The arguments, checked against the tool's schema; INVALID_ARGUMENT naming each refused one. An
 * argument the tool does not take is refused too (the schema is strict), not left unread: `limt`
 * would otherwise quietly be the default limit.
 */
export function checkedArguments<T extends z.ZodObject>(schema: T, value: unknown): z.infer<T> {
  const parsed = schema.safeParse(value ?? {});
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) =>
    issue.code === "unrecognized_keys"
      ? `${issue.keys.join(", ")}: not an argument of this tool (it takes ${Object.keys(schema.shape).join(", ")})`
      : `${issue.path.join(".") || "arguments"}: ${issue.message}`,
  );
  throw new ToolError(
    "INVALID_ARGUMENT",
    `invalid arguments (${problems.join("; ")})`,
    "correct these arguments as the tool's inputSchema gives their types and limits, and call again",
  );
}

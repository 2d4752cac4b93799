/** The project's fixture sessions by what they exercise (see test/fixtures/README.md). */
import { join } from "node:path";
import { FIXTURES } from "./agent-dir.js";

export const FIXTURE_SESSIONS_DIR = join(FIXTURES, "agent", "sessions");
const S = FIXTURE_SESSIONS_DIR;

export const FIXTURE_FILES = {
  s1: join(
    S,
    "--home-dev-shop-api--/2026-10-01T09-00-00-000Z_01a0f6b1-2680-79e3-a1fa-30b6f0582ef5.jsonl",
  ),
  s2: join(
    S,
    "--home-dev-shop-api--/2026-10-01T10-00-00-000Z_01a0f6e8-1500-7a6b-ad20-694247f75ec3.jsonl",
  ),
  s3: join(
    S,
    "--home-dev-shop-api--/2026-10-01T11-00-00-000Z_01a0f71f-0380-71ce-a5f6-9af2c7be0ad4.jsonl",
  ),
  s4: join(
    S,
    "--home-dev-blog--/2026-10-01T12-00-00-000Z_01a0f755-f200-7250-a372-48336bf4923d.jsonl",
  ),
  s5: join(
    S,
    "--home-dev-infra--/2026-10-01T13-00-00-000Z_01a0f78c-e080-7f28-af10-ffa76e6bae4c.jsonl",
  ),
  v1: join(
    S,
    "--home-dev-shop-api--/2026-09-01T09-00-00-000Z_421f595e-0a03-4c2f-9f1d-25f1dc156710.jsonl",
  ),
  v2: join(
    S,
    "--home-dev-blog--/2026-09-11T09-00-00-000Z_2d9abfc1-ce2a-46a6-a446-f9bb2819c0a3.jsonl",
  ),
  corrupt: join(
    S,
    "--home-dev-blog--/2026-10-01T16-00-00-000Z_01a0f831-ac00-74bc-a342-d9db8ae256fe.jsonl",
  ),
  noHeader: join(
    S,
    "--home-dev-infra--/2026-10-01T17-00-00-000Z_01a0f868-9a80-781f-b021-c1b2df97e78b.jsonl",
  ),
  unknownType: join(
    S,
    "--home-dev-infra--/2026-10-01T18-00-00-000Z_01a0f89f-8900-7c35-8cbf-ea1052d39058.jsonl",
  ),
  headerOnly: join(
    S,
    "--home-dev-infra--/2026-10-01T19-00-00-000Z_01a0f8d6-7780-7f34-83aa-43d63b541099.jsonl",
  ),
};

/** A user message entry as Pi appends it to a session file (parentless, at `ms`). */
export function userMessage(id: string, text: string, ms: number): string {
  return `${JSON.stringify({ type: "message", id, parentId: null, timestamp: new Date(ms).toISOString(), message: { role: "user", content: text, timestamp: ms } })}\n`;
}

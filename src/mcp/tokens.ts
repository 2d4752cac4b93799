/**
 * The opaque tokens the server hands out: `sref_…` session references and `mcur_…` cursors.
 * Both carry a checksum keyed by the sessions folder, so an edited, truncated or forged token is
 * refused before anything is looked up, and both are deterministic, so a restarted server makes
 * and accepts the same ones. Decoding never touches the file system. A session of the archive
 * (`--remote`) gets an `sref_…` too, checksummed as another kind: the remote's name and the
 * session id, never its host.
 */
import { createHmac } from "node:crypto";

const REF = /^sref_([0-9a-f]{2,512})([0-9a-f]{12})([0-9a-f]{16})$/;
const ARCHIVED_REF = /^sref_([0-9a-f]{2,1024})([0-9a-f]{16})$/;
const CURSOR_VERSION = 1;

export interface SessionToken {
  /** The session's id, from its header. */
  id: string;
  /** The identity of its file when the reference was made (device and inode, hashed). */
  file: string;
}

/** A session of an archive: the remote's name (as config.json names it) and the session's id. */
export interface ArchivedToken {
  remote: string;
  id: string;
}

export class Tokens {
  constructor(private readonly key: string) {}

  private check(kind: string, body: string, length: number): string {
    return createHmac("sha256", this.key).update(`${kind}:${body}`).digest("hex").slice(0, length);
  }

  sessionRef(token: SessionToken): string {
    const body = Buffer.from(token.id, "utf8").toString("hex") + token.file;
    return `sref_${body}${this.check("sref", body, 16)}`;
  }

  /** The session a reference names, or undefined for anything this server did not make. */
  readSessionRef(ref: string): SessionToken | undefined {
    const match = REF.exec(ref);
    if (!match || match[1]!.length % 2 !== 0) return undefined;
    const body = match[1]! + match[2]!;
    if (match[3] !== this.check("sref", body, 16)) return undefined;
    return { id: Buffer.from(match[1]!, "hex").toString("utf8"), file: match[2]! };
  }

  archivedRef(token: ArchivedToken): string {
    const body = Buffer.from(JSON.stringify([token.remote, token.id]), "utf8").toString("hex");
    return `sref_${body}${this.check("aref", body, 16)}`;
  }

  /**
   * The archived session a reference names, or undefined for anything else (a local reference
   * included).
   */
  readArchivedRef(ref: string): ArchivedToken | undefined {
    const match = ARCHIVED_REF.exec(ref);
    if (!match || match[1]!.length % 2 !== 0 || match[2] !== this.check("aref", match[1]!, 16))
      return undefined;
    const [remote, id] = JSON.parse(Buffer.from(match[1]!, "hex").toString("utf8")) as [
      string,
      string,
    ];
    return { remote, id };
  }

  /**
   * A cursor for `tool`, continuing `inner` (the library's cursor), tied to the call's other
   * arguments.
   */
  cursor(tool: string, call: unknown, inner: string): string {
    const body = JSON.stringify({
      v: CURSOR_VERSION,
      t: tool,
      a: this.check("call", JSON.stringify(call), 16),
      c: inner,
    });
    const encoded = Buffer.from(body, "utf8").toString("base64url");
    return `mcur_${encoded}.${this.check("mcur", encoded, 16)}`;
  }

  /**
   * The library cursor inside `cursor`, for the same tool and arguments; undefined for a first
   * page (no cursor, `"/"` or `"start"`); "invalid" for anything else.
   */
  readCursor(
    tool: string,
    call: unknown,
    cursor: string | undefined,
  ): string | undefined | "invalid" {
    if (cursor === undefined || cursor === "/" || cursor === "start") return undefined;
    const match = /^mcur_([A-Za-z0-9_-]+)\.([0-9a-f]{16})$/.exec(cursor);
    if (!match || match[2] !== this.check("mcur", match[1]!, 16)) return "invalid";
    try {
      const body = JSON.parse(Buffer.from(match[1]!, "base64url").toString("utf8")) as {
        v?: unknown;
        t?: unknown;
        a?: unknown;
        c?: unknown;
      };
      if (
        body.v !== CURSOR_VERSION ||
        body.t !== tool ||
        body.a !== this.check("call", JSON.stringify(call), 16) ||
        typeof body.c !== "string"
      )
        return "invalid";
      return body.c;
    } catch {
      return "invalid";
    }
  }
}

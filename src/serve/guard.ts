/**
 * Who may talk to `recall serve`: only a page of this server, in the browser of the user who ran
 * it. A request must name the server by a host it listens as (no DNS rebinding: a page of another
 * site that resolves its name to 127.0.0.1 sends its own name), and carry the run's secret: in the
 * printed URL once, which sets a cookie (HttpOnly, SameSite=Strict: another site's page cannot send
 * it, so no CSRF), then the cookie. A request that changes something must also come from this
 * server's own origin, with a JSON body (a form cannot send one).
 */
import { randomBytes, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";

export type Verdict =
  | { kind: "pass" }
  /** The secret was in the URL: set the cookie and go to the same address without it. */
  | { kind: "admit"; location: string; cookie: string }
  | { kind: "refuse"; status: number; message: string };

export class Guard {
  /** The run's secret, in the printed URL. */
  readonly token = randomBytes(24).toString("base64url");
  private readonly hosts: Set<string>;
  /** Cookies are not told apart by port: one name per port keeps two servers apart. */
  private readonly cookieName: string;

  constructor(hostNames: readonly string[], port: number) {
    this.hosts = new Set(
      hostNames.map((name) => `${name.includes(":") ? `[${name}]` : name}:${port}`.toLowerCase()),
    );
    this.cookieName = `recall-${port}`;
  }

  check(request: IncomingMessage, url: URL): Verdict {
    const host = (request.headers.host ?? "").toLowerCase();
    if (!this.hosts.has(host))
      return {
        kind: "refuse",
        status: 421,
        message: "this server answers only at the address recall serve printed",
      };
    const offered = url.searchParams.get("token");
    if (offered !== null) {
      if (!this.isToken(offered))
        return {
          kind: "refuse",
          status: 403,
          message: "that link's secret is not this server's: open the address recall serve printed",
        };
      url.searchParams.delete("token");
      return {
        kind: "admit",
        location: `${url.pathname}${url.search}`,
        cookie: `${this.cookieName}=${this.token}; HttpOnly; SameSite=Strict; Path=/`,
      };
    }
    if (!this.isToken(this.cookieOf(request) ?? ""))
      return {
        kind: "refuse",
        status: 401,
        message: "open the address recall serve printed (it holds this run's secret)",
      };
    if (request.method !== "GET" && request.method !== "HEAD") {
      const origin = request.headers.origin;
      if (origin !== undefined && origin.toLowerCase() !== `http://${host}`)
        return {
          kind: "refuse",
          status: 403,
          message: "a change must come from recall's own page",
        };
      if (!/^application\/json\b/i.test(request.headers["content-type"] ?? ""))
        return { kind: "refuse", status: 415, message: "a change is sent as JSON" };
    }
    return { kind: "pass" };
  }

  private cookieOf(request: IncomingMessage): string | undefined {
    for (const pair of (request.headers.cookie ?? "").split(";")) {
      const at = pair.indexOf("=");
      if (at > 0 && pair.slice(0, at).trim() === this.cookieName) return pair.slice(at + 1).trim();
    }
    return undefined;
  }

  private isToken(offered: string): boolean {
    const a = Buffer.from(offered);
    const b = Buffer.from(this.token);
    return a.length === b.length && timingSafeEqual(a, b);
  }
}

/** The policy of every page: its own script and styles only, fetches to itself, nothing framed. */
export const PAGE_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'none'; object-src 'none'; frame-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** Headers on every answer. */
export const SECURITY_HEADERS: Record<string, string> = {
  "Content-Security-Policy": PAGE_POLICY,
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "no-referrer",
  "X-Frame-Options": "DENY",
  "Cross-Origin-Opener-Policy": "same-origin",
  "Cross-Origin-Resource-Policy": "same-origin",
};

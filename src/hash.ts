/**
 * Hashing without loading node:crypto at start-up (it costs a few milliseconds of every cold
 * `recall search`): a fast non-cryptographic hash for cache keys and fingerprints, and SHA-1 and
 * SHA-256 and random ids that load node:crypto only when first used.
 */
import { createRequire } from "node:module";
import type * as Crypto from "node:crypto";

let crypto: typeof Crypto | undefined;
function nodeCrypto(): typeof Crypto {
  crypto ??= createRequire(import.meta.url)("node:crypto") as typeof Crypto;
  return crypto;
}

/** SHA-1, hex. */
export function sha1(data: string | Uint8Array): string {
  return sha1Hasher().update(data).digest("hex");
}

/** A SHA-1 hash to feed in pieces. */
export function sha1Hasher(): Crypto.Hash {
  return nodeCrypto().createHash("sha1");
}

/** A SHA-256 hash to feed in pieces. */
export function sha256Hasher(): Crypto.Hash {
  return nodeCrypto().createHash("sha256");
}

export function randomId(): string {
  return nodeCrypto().randomUUID();
}

/**
 * A 64-bit hash (two 32-bit FNV-1a lanes) of strings fed to it in order, as 16 hex digits. Not
 * for anything an adversary controls: only for noticing that a list of file signatures changed.
 */
export class FastHash {
  private a = 0x811c9dc5;
  private b = 0x050c5d1f;

  update(text: string): this {
    let { a, b } = this;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      a = Math.imul(a ^ c, 0x01000193);
      b = Math.imul(b ^ c, 0x01000193) ^ (b >>> 15);
    }
    this.a = a;
    this.b = b;
    return this;
  }

  digest(): string {
    return (
      (this.a >>> 0).toString(16).padStart(8, "0") + (this.b >>> 0).toString(16).padStart(8, "0")
    );
  }
}

/**
 * Which prebuilt native core fits this machine, named as napi-rs names its platforms: the
 * package `recall-pi-<platform>` (an optional dependency of recall-pi; npm installs only the one
 * whose `os`, `cpu` and `libc` fit) holds `recall.<platform>.node`.
 */
import { readFileSync } from "node:fs";

/** The platforms with a prebuilt package (package.json `napi.targets`; the release builds each). */
export const PREBUILT_PLATFORMS = [
  "darwin-arm64",
  "darwin-x64",
  "linux-x64-gnu",
  "linux-arm64-gnu",
  "linux-x64-musl",
];

/** Whether this Linux runs musl's C library (Alpine) rather than glibc. */
function isMusl(): boolean {
  try {
    // The dynamic loader's script says which C library it belongs to; cheaper than a process
    // report.
    return readFileSync("/usr/bin/ldd", "utf8").includes("musl");
  } catch {
    const header = (
      process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined
    )?.header;
    return !header?.glibcVersionRuntime;
  }
}

/**
 * This machine's platform in napi-rs's words: `linux-x64-gnu`, `darwin-arm64`, `win32-x64-msvc`.
 */
export function currentPlatform(): string {
  const { platform, arch } = process;
  if (platform === "linux") return `linux-${arch}-${isMusl() ? "musl" : "gnu"}`;
  if (platform === "win32") return `win32-${arch}-msvc`;
  return `${platform}-${arch}`;
}

export function platformPackage(platform: string): { name: string; file: string } {
  return { name: `recall-pi-${platform}`, file: `recall.${platform}.node` };
}

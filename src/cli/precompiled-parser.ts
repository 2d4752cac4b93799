/**
 * Parsers compiled when the bundle is built. clipanion turns the registered commands into a state
 * machine on every run, and simplifying it is most of the time a cold `recall search` spends
 * parsing its command line (~4 ms of ~6). The machine depends only on the commands' definitions,
 * so scripts/bundle-cli.mjs compiles it once per command and writes it beside the bundle
 * (dist/bundle/parsers/<command>.json); a run loads it and hands it to clipanion's builder, which
 * scripts/bundle-cli.mjs teaches to use it instead of compiling. A machine whose commands differ
 * from the registered ones, or no file (the library's unbundled build, the tests), and clipanion
 * compiles as before.
 */
import { readFileSync } from "node:fs";
import type { BaseContext, Cli } from "clipanion";

/** What this module touches of clipanion's builder: not part of its typed API. */
interface CommandBuilderShape {
  paths: string[][];
  options: unknown[];
  arity: unknown;
}
interface CliBuilderShape {
  builders: CommandBuilderShape[];
  compile(): { machine: Machine };
  /** Read by the patched CliBuilder.compile (scripts/bundle-cli.mjs). */
  precompiledMachine?: Machine;
}
interface MachineNode {
  dynamics: [unknown, unknown][];
}
interface Machine {
  nodes: MachineNode[];
}
/**
 * A machine as written. Each node is a JSON text of its own, decoded when the parser first
 * reaches it: a command line visits a handful of a machine's nodes, and decoding all of them
 * cost ~1 ms more. The arrays that many option tests share are written once, in `shared`.
 */
interface StoredParser {
  commands: string;
  shared: unknown[];
  nodes: string[];
}

function builderOf<C extends BaseContext>(cli: Cli<C>): CliBuilderShape {
  return (cli as unknown as { builder: CliBuilderShape }).builder;
}

/** The registered commands' paths, options and positional arguments, in order, as one string. */
function commandsOf(builder: CliBuilderShape): string {
  return JSON.stringify(builder.builders.map((command) => [command.paths, command.options, command.arity]));
}

/** A reference to a shared array, in a test's arguments. */
interface SharedRef {
  "@": number;
}
const isSharedRef = (value: unknown): value is SharedRef => typeof value === "object" && value !== null && "@" in value;

/** Compiles `cli`'s parser the way clipanion does, as the text of a parsers/<command>.json file. */
export function compileParser<C extends BaseContext>(cli: Cli<C>): string {
  const builder = builderOf(cli);
  const { machine } = builder.compile();
  // Option tests carry the command's option list; a machine holds hundreds of references to it.
  const shared: unknown[] = [];
  const ids = new Map<unknown, number>();
  const share = (value: unknown): SharedRef => {
    if (!ids.has(value)) ids.set(value, shared.push(value) - 1);
    return { "@": ids.get(value)! };
  };
  const nodes = machine.nodes.map((node) =>
    JSON.stringify({
      ...node,
      dynamics: node.dynamics.map(([test, transition]) => [
        Array.isArray(test) ? test.map((arg: unknown) => (typeof arg === "object" && arg !== null ? share(arg) : arg)) : test,
        transition,
      ]),
    }),
  );
  const stored: StoredParser = { commands: commandsOf(builder), shared, nodes };
  return JSON.stringify(stored);
}

/** The nodes of a stored machine, each decoded on first access and kept. */
function lazyNodes(stored: StoredParser): MachineNode[] {
  const nodes: MachineNode[] = [];
  stored.nodes.forEach((text, index) => {
    Object.defineProperty(nodes, index, {
      configurable: true,
      enumerable: true,
      get: () => {
        const node = JSON.parse(text) as MachineNode;
        for (const dynamic of node.dynamics) {
          if (Array.isArray(dynamic[0])) dynamic[0] = dynamic[0].map((arg: unknown) => (isSharedRef(arg) ? stored.shared[arg["@"]] : arg));
        }
        Object.defineProperty(nodes, index, { value: node, writable: true, enumerable: true, configurable: true });
        return node;
      },
    });
  });
  return nodes;
}

/**
 * Gives `cli` the parser in `file` if there is one for its commands; returns whether it did.
 * Never fails: a missing or unusable file leaves clipanion to compile its own.
 */
export function usePrecompiledParser<C extends BaseContext>(cli: Cli<C>, file: URL): boolean {
  let stored: StoredParser;
  try {
    stored = JSON.parse(readFileSync(file, "utf8")) as StoredParser;
  } catch {
    return false;
  }
  const builder = builderOf(cli);
  if (stored.commands !== commandsOf(builder) || !Array.isArray(stored.nodes)) return false;
  builder.precompiledMachine = { nodes: lazyNodes(stored) };
  return true;
}

/**
 * The options of recall's commands: clipanion's `Option.*`, each also noted here with what
 * recall's own readers of a command line need to know of it (its names, whether it takes a value,
 * its start value and validator). quick-parse.ts builds the plainest command lines of `search` and
 * `list` from these notes without clipanion's Cli, and attached-values.ts and query-words.ts read
 * them to tidy a command line before either parser sees it. Commands import `Option` from here,
 * never from clipanion, so that every option is noted; clipanion is used only through its public
 * functions.
 */
import { Command, Option as Clipanion } from "clipanion";
import type { Coercion, CoercionFn, StrictValidator } from "typanion";

/** An option given by name: a flag (`arity` 0) or one that takes a value. */
export interface NamedOption {
  kind: "boolean" | "string" | "array";
  names: string[];
  arity: 0 | 1;
  required: boolean;
  /** The value when the option is not given. */
  initial: unknown;
  validator?: StrictValidator<unknown, unknown>;
}

/** The words after the options. */
export interface RestOption {
  kind: "rest";
  /** How many words are needed at least. */
  required: number;
}

/**
 * An option that recall's own readers do not handle (a positional value, one read from the
 * environment, a value of several words).
 */
export interface OtherOption {
  kind: "other";
}

export type OptionNote = NamedOption | RestOption | OtherOption;

const notes = new WeakMap<object, OptionNote>();

function noted<T>(option: T, note: OptionNote): T {
  if (typeof option === "object" && option !== null) notes.set(option, note);
  return option;
}

interface Flags {
  required?: boolean;
  validator?: StrictValidator<unknown, unknown>;
  env?: string;
  arity?: number;
  tolerateBoolean?: boolean;
}

/** A descriptor's initial value and flags, from the two ways clipanion takes them. */
function initialAndFlags(second: unknown, third: unknown): { initial: unknown; flags: Flags } {
  const hasInitial = typeof second !== "object" || second === null || Array.isArray(second);
  return {
    initial: hasInitial ? second : undefined,
    flags: ((hasInitial ? third : second) ?? {}) as Flags,
  };
}

function namedNote(
  kind: NamedOption["kind"],
  descriptor: string,
  second: unknown,
  third: unknown,
): OptionNote {
  const { initial, flags } = initialAndFlags(second, third);
  const takesValue = kind !== "boolean";
  const unusual =
    flags.env !== undefined ||
    flags.tolerateBoolean ||
    (takesValue && (flags.arity ?? 1) !== 1) ||
    (kind === "array" && flags.validator);
  if (unusual) return { kind: "other" };
  return {
    kind,
    names: descriptor.split(","),
    arity: takesValue ? 1 : 0,
    required: flags.required === true,
    initial,
    ...(flags.validator ? { validator: flags.validator } : {}),
  };
}

const stringOption = ((...args: unknown[]) => {
  const option = (Clipanion.String as (...a: unknown[]) => unknown)(...args);
  const [descriptor, second, third] = args;
  return noted(
    option,
    typeof descriptor === "string"
      ? namedNote("string", descriptor, second, third)
      : { kind: "other" },
  );
}) as typeof Clipanion.String;

const booleanOption = ((descriptor: string, second?: unknown, third?: unknown) => {
  const option = (Clipanion.Boolean as (...a: unknown[]) => unknown)(descriptor, second, third);
  return noted(option, namedNote("boolean", descriptor, second, third));
}) as typeof Clipanion.Boolean;

const arrayOption = ((descriptor: string, second?: unknown, third?: unknown) => {
  const option = (Clipanion.Array as (...a: unknown[]) => unknown)(descriptor, second, third);
  return noted(option, namedNote("array", descriptor, second, third));
}) as typeof Clipanion.Array;

const restOption = ((flags?: { name?: string; required?: number }) =>
  noted(Clipanion.Rest(flags), {
    kind: "rest",
    required: flags?.required ?? 0,
  })) as typeof Clipanion.Rest;

/** clipanion's options, noted. */
export const Option = {
  String: stringOption,
  Boolean: booleanOption,
  Array: arrayOption,
  Rest: restOption,
};

/**
 * A command's options by field name, or undefined when one of them was not made here (so is not
 * understood).
 */
export function optionsOf(command: Command<never> | object): Map<string, OptionNote> | undefined {
  const options = new Map<string, OptionNote>();
  for (const [key, value] of Object.entries(command)) {
    if (typeof value !== "object" || value === null || !(Command.isOption in value)) continue;
    const note = notes.get(value);
    if (!note) return undefined;
    options.set(key, note);
  }
  return options;
}

/**
 * `value` checked and converted by `validator` as typanion documents its coercions (the way
 * clipanion applies an option's validator); undefined when the validator refuses it.
 */
export function validated(
  value: string,
  validator: StrictValidator<unknown, unknown> | undefined,
): { value: unknown } | undefined {
  if (!validator) return { value };
  let current: unknown = value;
  const coercions: Coercion[] = [];
  const coercion: CoercionFn = (next) => {
    const before = current;
    current = next;
    return () => coercion(before);
  };
  if (!validator(current, { errors: [], coercions, coercion })) return undefined;
  for (const [, apply] of coercions) apply();
  return { value: current };
}

/**
 * The facade's model features (`recall.models`: ask, autotag) and the configuration that chooses
 * their model.
 * They are imported when first used: a cold search evaluates none of them (see BENCHMARKS.md).
 */
import type { AskOptions, AskResult } from "../ask.js";
import type { AutoTagOptions, AutoTagResult } from "../autotag.js";
import { saveModel, strictConfig } from "../../config.js";
import type { ModelCaller } from "../pi-model.js";
import type { SessionRef } from "../resolve-session.js";
import type { IndexLease } from "./lease.js";
import type { Sessions } from "./sessions.js";

/**
 * Which model answers: `model` (`provider/id`; default the configured one, else Pi's default),
 * asked through `caller`.
 */
export interface ModelChoice {
  model?: string;
  /**
   * How to ask the model chosen (undefined: Pi's default): inside Pi, Pi's own API. Without it,
   * the user's `pi` is run (see pi-model.ts).
   */
  caller?: (model: string | undefined) => ModelCaller;
}

export class Models {
  constructor(
    private readonly lease: IndexLease,
    private readonly sessions: Sessions,
  ) {}

  /**
   * Asks a model about one session: the messages `context` picks for the question go to the
   * model (`model`, else the configured one, else Pi's default), through the user's `pi`.
   */
  async ask(
    ref: string | SessionRef,
    question: string,
    options: AskOptions & ModelChoice = {},
  ): Promise<AskResult> {
    const session = await this.sessions.session(ref);
    const model = options.model ?? strictConfig(this.lease.config()).ask.model;
    const [{ askAboutSession }, { printModeCaller }] = await Promise.all([
      import("../ask.js"),
      import("../pi-model.js"),
    ]);
    return askAboutSession(
      session,
      question,
      options.caller?.(model) ?? printModeCaller(this.lease.env, model),
      options,
    );
  }

  /**
   * Tags sessions with a model (`model`, else the configured one, else Pi's default); see
   * autotag.ts. A batch keeps one `pi` process for all its sessions.
   */
  async autoTag(
    sessions: readonly SessionRef[],
    options: AutoTagOptions & ModelChoice = {},
  ): Promise<AutoTagResult[]> {
    const config = strictConfig(this.lease.config()).autoTags;
    const model = options.model ?? config.model;
    const [{ autoTagSessions, autoTagSystemPrompt }, { PiConversation, printModeCaller }] =
      await Promise.all([import("../autotag.js"), import("../pi-model.js")]);
    // A batch keeps one `pi` process for all its sessions.
    const caller =
      options.caller?.(model) ??
      (sessions.length > 1
        ? new PiConversation(this.lease.env, model, autoTagSystemPrompt(config))
        : printModeCaller(this.lease.env, model));
    try {
      return await autoTagSessions(await this.lease.store(), sessions, caller, config, options);
    } finally {
      await caller.close();
    }
  }

  /**
   * The model a feature would ask: `provider/id` from the configuration, or undefined for Pi's
   * default.
   */
  modelFor(feature: "autoTags" | "ask"): string | undefined {
    return strictConfig(this.lease.config())[feature].model;
  }

  /** Makes `model` (`provider/id`) the one asking and auto-tagging use, in recall's config.json. */
  choose(model: string): void {
    saveModel(this.lease.config().path, model);
  }
}

/**
 * Asking a model from inside Pi: through Pi's own model registry (its credentials, OAuth logins
 * and providers registered by extensions), with Pi's abort signal, in process. The library's
 * model features (autotag, ask) take this in place of running `pi`.
 */
import type { ExtensionContext } from "@earendil-works/pi-coding-agent";
import { RecallError, type ModelCaller } from "../index.js";

type Registry = ExtensionContext["modelRegistry"];
type PiModel = NonNullable<ExtensionContext["model"]>;

/** `provider/id` as Pi names a model. */
export function modelName(model: Pick<PiModel, "provider" | "id">): string {
  return `${model.provider}/${model.id}`;
}

/** The model `name` names (`provider/id`), else the session's current one. */
function resolveModel(
  ctx: Pick<ExtensionContext, "modelRegistry" | "model">,
  name: string | undefined,
): PiModel {
  if (name) {
    const slash = name.indexOf("/");
    const found = ctx.modelRegistry.find(name.slice(0, slash), name.slice(slash + 1));
    if (!found)
      throw new RecallError("MODEL_UNAVAILABLE", `Pi knows no model ${name}`, {
        hint: "choose another with /recall model",
      });
    return found;
  }
  if (!ctx.model)
    throw new RecallError("MODEL_UNAVAILABLE", "no model is selected in Pi", {
      hint: "choose one with /recall model or /model",
    });
  return ctx.model;
}

export function piModelCaller(
  ctx: Pick<ExtensionContext, "modelRegistry" | "model">,
  name: string | undefined,
): ModelCaller {
  const model = resolveModel(ctx, name);
  const registry: Registry = ctx.modelRegistry;
  if (!registry.hasConfiguredAuth(model)) {
    throw new RecallError("MODEL_UNAVAILABLE", `Pi has no credentials for ${modelName(model)}`, {
      hint: "log in with /login, or choose another model with /recall model",
    });
  }
  return {
    model: modelName(model),
    async answer(question, signal) {
      const message = await registry.complete(
        model,
        {
          systemPrompt: question.system,
          messages: [
            {
              role: "user",
              content: [{ type: "text", text: question.prompt }],
              timestamp: Date.now(),
            },
          ],
        },
        signal ? { signal } : {},
      );
      if (message.stopReason === "aborted" || signal?.aborted)
        throw new RecallError("ABORTED", "stopped before the model answered");
      if (message.stopReason === "error")
        throw new RecallError(
          "MODEL_FAILED",
          `${modelName(model)}: ${message.errorMessage ?? "the request failed"}`,
        );
      const text = message.content
        .filter((block): block is { type: "text"; text: string } => block.type === "text")
        .map((block) => block.text)
        .join("")
        .trim();
      return { text, model: modelName(model) };
    },
    close: async () => {},
  };
}

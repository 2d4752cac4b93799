/**
 * A test-only Pi extension: registers a scripted faux model provider, `recall-faux/scripted`, so
 * end-to-end tests drive the real Pi with no network. Load it next to the recall extension:
 *
 *   pi -e src/pi/extension.ts -e test/helpers/pi-faux-provider.ts --model recall-faux/scripted
 *   --api-key x -p "…"
 *
 * The script comes from RECALL_FAUX_SCRIPT, a JSON array with one step per model call:
 * `{"tool": {"name": "recall", "arguments": {…}}}` asks for a tool call, `{"text": "…"}` answers.
 * A text step may contain `{{lastToolResult}}`, replaced by the text of the latest tool result, so
 * a test can see in Pi's printed answer what the tool returned. Past the end, the model says
 * "done".
 */
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { fauxAssistantMessage, fauxProvider, fauxText, fauxToolCall } from "@earendil-works/pi-ai";

type ToolArguments = Parameters<typeof fauxToolCall>[1];

interface Step {
  tool?: { name: string; arguments: ToolArguments };
  text?: string;
}

function lastToolResult(messages: readonly { role: string; content?: unknown }[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (message.role !== "toolResult" || !Array.isArray(message.content)) continue;
    return message.content
      .filter((block: { type?: string }) => block.type === "text")
      .map((block: { text?: string }) => block.text ?? "")
      .join("\n");
  }
  return "";
}

export default function (pi: ExtensionAPI) {
  const script = JSON.parse(process.env.RECALL_FAUX_SCRIPT ?? "[]") as Step[];
  const faux = fauxProvider({
    api: "recall-faux",
    provider: "recall-faux",
    models: [
      {
        id: "scripted",
        name: "Scripted",
        reasoning: false,
        input: ["text"],
        contextWindow: 200_000,
        maxTokens: 8_000,
      },
    ],
  });
  let call = 0;
  const respond = (context: { messages: readonly { role: string; content?: unknown }[] }) => {
    const step = script[call++];
    if (step?.tool)
      return fauxAssistantMessage(fauxToolCall(step.tool.name, step.tool.arguments), {
        stopReason: "toolUse",
      });
    const text = (step?.text ?? "done").replace("{{lastToolResult}}", () =>
      lastToolResult(context.messages),
    );
    return fauxAssistantMessage(fauxText(text));
  };
  // One response factory per expected call; each reads the conversation it is given.
  faux.setResponses(Array.from({ length: script.length + 4 }, () => respond));
  pi.registerProvider(faux.provider);
}

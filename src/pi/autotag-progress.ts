/**
 * The overlay `/recall autotag --all-untagged` shows while it runs: how far it is, the last
 * session tagged, and that Esc stops it (aborting the request under way). A plain TUI component:
 * lines of text, no state beyond what the batch reports.
 */
import type { KeybindingsManager } from "@earendil-works/pi-tui";
import { truncate, type Measure } from "../output/plain-text.js";

export interface ProgressView {
  total: number;
  done: number;
  tagged: number;
  failed: number;
  model: string;
  /** The last result, one line. */
  last?: string;
  stopping: boolean;
}

export class AutotagProgress {
  private view: ProgressView;

  constructor(
    view: ProgressView,
    private readonly keys: {
      keybindings: Pick<KeybindingsManager, "matches">;
      onCancel: () => void;
      requestRender: () => void;
      measure: Measure;
    },
  ) {
    this.view = view;
  }

  update(change: Partial<ProgressView>): void {
    this.view = { ...this.view, ...change };
    this.keys.requestRender();
  }

  render(width: number): string[] {
    const { total, done, tagged, failed, model, last, stopping } = this.view;
    const room = Math.max(10, width - 4);
    const bar = Math.max(10, Math.min(40, room - 20));
    const filled = total > 0 ? Math.round((done / total) * bar) : 0;
    const lines = [
      `Auto-tagging ${total} session${total === 1 ? "" : "s"} with ${model}`,
      `[${"#".repeat(filled)}${"-".repeat(bar - filled)}] ${done}/${total}`,
      `${tagged} tagged, ${failed} failed`,
      last ? `last: ${last}` : "",
      stopping ? "stopping…" : "Esc stops (tags already saved are kept)",
    ];
    return lines.map((line) => `  ${truncate(line, room, this.keys.measure)}`);
  }

  invalidate(): void {}

  handleInput(data: string): void {
    if (this.keys.keybindings.matches(data, "tui.select.cancel")) {
      this.update({ stopping: true });
      this.keys.onCancel();
    }
  }
}

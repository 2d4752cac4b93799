/**
 * recall inside Pi: the `/recall` picker and subcommands, `/recall-reindex`, and the model's
 * `recall` tool (with pi-session-recall's `pi_session_*` tools beside it), over the same library
 * and index as the `recall` CLI, in process.
 *
 * Loading the extension only registers things: the index, the tag database and the background
 * thread are opened on first use (the library's Recall opens nothing before), so Pi starts as
 * fast with recall as without. With the meaning model's package installed, a session's start also
 * starts the index and the meaning index being brought up to date in the background (the model on
 * one thread at the lowest priority), so meaning search finds what Pi wrote without a
 * `recall index --meaning`.
 */
import {
  SessionManager,
  type ExtensionAPI,
  type ExtensionCommandContext,
  type ExtensionContext,
} from "@earendil-works/pi-coding-agent";
import { CURSOR_MARKER, renderFakeCursor, visibleWidth } from "@earendil-works/pi-tui";
import {
  normalizeTag,
  Recall,
  RecallError,
  type AutoTagResult,
  type Notice,
  type SearchHit,
} from "../index.js";
import { formatTags, sessionTitle } from "../output/session-text.js";
import { parseRecallArgs, completeRecallArgs } from "./commands.js";
import { RememberedList } from "./tag-lists.js";
import { formatSessions } from "./format.js";
import { helpText } from "./help.js";
import { RecallPicker, type PickerOutcome, type PickerService } from "./picker/component.js";
import { initialState } from "./picker/state.js";
import { AutotagProgress } from "./autotag-progress.js";
import { modelName, piModelCaller } from "./model-caller.js";
import { recallOptionsFor } from "./pi-locations.js";
import { queryTool } from "./query-tool.js";
import { currentSession, currentSessionRef } from "./session-ref.js";
import { sessionTools } from "./session-tools.js";
import { recallTool } from "./tool.js";

/**
 * Where command output goes: Pi's notifications in the TUI and RPC, the terminal in print mode.
 * In print mode Pi keeps stdout for the model's answer and routes what extensions write to
 * `process.stdout` to stderr; the output follows whatever Pi decides.
 */
interface Output {
  info(text: string): void;
  warn(text: string): void;
  error(text: string): void;
}

function outputFor(ctx: ExtensionContext): Output {
  if (ctx.mode === "print") {
    return {
      info: (text) => process.stdout.write(`${text}\n`),
      warn: (text) => process.stderr.write(`recall: ${text}\n`),
      error: (text) => process.stderr.write(`recall: ${text}\n`),
    };
  }
  if (ctx.mode === "json") {
    // stdout carries Pi's JSON events: never write to it.
    const write = (text: string) => process.stderr.write(`recall: ${text}\n`);
    return { info: write, warn: write, error: write };
  }
  return {
    info: (text) => ctx.ui.notify(text, "info"),
    warn: (text) => ctx.ui.notify(text, "warning"),
    error: (text) => ctx.ui.notify(text, "error"),
  };
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Results shown as text where there is no picker (print, JSON and RPC modes). */
const TEXT_RESULTS = 20;

export default function recallExtension(pi: ExtensionAPI): void {
  let opened: Recall | undefined;
  /** The session Pi has open, and where it runs: what completions need, as they get no ctx. */
  let session: { id?: string; path?: string } = {};
  let where: Pick<ExtensionContext, "cwd" | "sessionManager"> | undefined;

  const recallFor = (ctx: Pick<ExtensionContext, "cwd" | "sessionManager">): Recall => {
    opened ??= Recall.open({
      ...recallOptionsFor({ cwd: ctx.cwd, piSessionDir: ctx.sessionManager.getSessionDir() }),
      background: true,
      live: true,
    });
    return opened;
  };

  pi.on("session_start", (_event, ctx) => {
    session = currentSession(ctx);
    where = { cwd: ctx.cwd, sessionManager: ctx.sessionManager };
    const recall = recallFor(where);
    if (recall.meaning.modelInstalled()) {
      recall.sessionTools.startIndexing();
      // One warning a session for a meaning index that cannot be built (a damaged model file, a
      // full disk).
      let warned = false;
      recall.meaning.follow((error) => {
        if (!warned)
          ctx.ui.notify(
            `recall: the meaning index could not be brought up to date: ${errorText(error)}`,
            "warning",
          );
        warned = true;
      });
    }
  });
  pi.on("session_shutdown", () => {
    opened?.close();
    opened = undefined;
    where = undefined;
  });

  const knownTags = new RememberedList(async () =>
    where ? (await recallFor(where).tags.counts()).map((c) => c.tag) : [],
  );
  const openSessionTags = new RememberedList(async () => {
    if (!session.id || !where) return knownTags.list;
    const ref = { id: session.id, path: session.path ?? "", cwd: where.cwd };
    return (await recallFor(where).tags.of(ref)).tags;
  });

  pi.registerCommand("recall", {
    description: "Search earlier sessions and resume one (/recall help for more)",
    // Answers at once, from the tags read on an earlier keystroke (see tag-lists.ts).
    getArgumentCompletions: (prefix) => {
      knownTags.refresh();
      openSessionTags.refresh();
      return completeRecallArgs(
        prefix,
        () => knownTags.list,
        () => openSessionTags.list,
      );
    },
    handler: async (args, ctx) => {
      const out = outputFor(ctx);
      const command = parseRecallArgs(args);
      try {
        const recall = recallFor(ctx);
        switch (command.type) {
          case "help":
            out.info(helpText(recall.config().path));
            return;
          case "usage":
            out.warn(command.message);
            return;
          case "tags":
            await showTags(recall, ctx, out);
            return;
          case "tag":
          case "untag":
            await editTags(recall, ctx, out, command.type, command.tags);
            return;
          case "pick":
            if (ctx.mode === "tui") await pick(recall, ctx, command.query);
            else await printResults(recall, ctx, out, command.query);
            return;
          case "autotag":
            if (command.all) await autotagUntagged(recall, ctx, out, command.yes);
            else await autotagThisSession(recall, ctx, out);
            return;
          case "model":
            await chooseModel(recall, ctx, out);
            return;
        }
      } catch (error) {
        out.error(errorText(error));
      }
    },
  });

  pi.registerCommand("recall-reindex", {
    description: "Rebuild the recall search index from the session files (tags are kept)",
    handler: async (_args, ctx) => {
      const out = outputFor(ctx);
      try {
        await reindex(recallFor(ctx), ctx, out);
      } catch (error) {
        out.error(errorText(error));
      }
    },
  });

  pi.registerTool(recallTool((ctx) => recallFor(ctx)));
  pi.registerTool(queryTool((ctx) => recallFor(ctx)));
  const [search, find, context, read] = sessionTools((ctx) => recallFor(ctx));
  pi.registerTool(search);
  pi.registerTool(find);
  pi.registerTool(context);
  pi.registerTool(read);
}

function showNotices(recall: Recall, out: Output, extra: readonly string[] = []): void {
  for (const notice of [...recall.takeNotices().map((n) => n.message), ...extra]) out.info(notice);
}

async function showTags(recall: Recall, ctx: ExtensionCommandContext, out: Output): Promise<void> {
  const ref = currentSessionRef(ctx);
  const tags = await recall.tags.of(ref);
  if (tags.tags.length === 0) {
    out.info("This session has no tags. Add some with /recall tag #name.");
    return;
  }
  const auto = tags.auto.length > 0 ? ` (automatic: ${formatTags(tags.auto)})` : "";
  out.info(`This session's tags: ${formatTags(tags.tags)}${auto}`);
}

async function editTags(
  recall: Recall,
  ctx: ExtensionCommandContext,
  out: Output,
  kind: "tag" | "untag",
  raw: string[],
): Promise<void> {
  const ref = currentSessionRef(ctx);
  const before = (await recall.tags.of(ref)).tags;
  const edit =
    kind === "tag" ? await recall.tags.add([ref], raw) : await recall.tags.remove([ref], raw);
  const wanted = raw.map(normalizeTag);
  const now = edit.sessions[0]!.tags;
  const list = now.length > 0 ? `Its tags: ${formatTags(now)}.` : "It has no tags now.";
  if (kind === "tag") {
    out.info(`Tagged this session ${formatTags(wanted)}. ${list}`);
  } else {
    const absent = wanted.filter((t) => !before.includes(t));
    out.info(
      `Removed ${formatTags(wanted)}. ${list}${absent.length > 0 ? ` (${formatTags(absent)} was not on this session.)` : ""}`,
    );
  }
  if (edit.indexBusy)
    out.warn(
      "the tags are saved; another recall process was writing the index, so searches show them after its next update",
    );
  if (edit.indexUnwritable)
    out.warn(`the tags are saved, not yet in the index: ${edit.indexUnwritable}`);
  showNotices(recall, out);
}

async function printResults(
  recall: Recall,
  ctx: ExtensionCommandContext,
  out: Output,
  query: string,
): Promise<void> {
  const scope = recall.config().config.picker.scope;
  const cwd = scope === "current" ? ctx.cwd : undefined;
  const { hits } = await recall.search({
    query,
    limit: TEXT_RESULTS,
    prefix: false,
    ...(cwd ? { cwd } : {}),
  });
  for (const notice of recall.takeNotices()) {
    if (notice.code === "INDEX_BUSY")
      out.warn("another recall process is writing the index; results may miss the newest sessions");
    else out.info(notice.message);
  }
  const where = cwd ? ` in ${cwd}` : "";
  if (hits.length === 0) {
    out.info(
      query.trim() ? `No session${where} matches "${query.trim()}".` : `No sessions${where} yet.`,
    );
    return;
  }
  const heading = query.trim()
    ? `Sessions${where} matching "${query.trim()}", best first:`
    : `Latest sessions${where}:`;
  out.info([heading, ...formatSessions(hits, Date.now())].join("\n"));
}

async function pick(recall: Recall, ctx: ExtensionCommandContext, query: string): Promise<void> {
  // Whatever another process (the CLI, another Pi) committed since this Pi last looked.
  await recall.reload();
  // Read each time the picker opens, so an edit applies without /reload; what cannot be used is
  // shown.
  const { config, problems } = recall.config();
  const warning = problems.length > 0 ? `${problems.join("; ")}; using the defaults` : undefined;
  // Tab reaches the first remote of config.json after all projects; the archive is searched only
  // there.
  let remote: string | undefined;
  let remoteProblem: string | undefined;
  try {
    remote = recall.archive.remotes()[0]?.name;
  } catch (error) {
    remoteProblem = `no archive scope: ${errorText(error)}`;
  }
  const state = initialState({
    query,
    scope: config.picker.scope,
    cwd: ctx.cwd,
    currentSession: currentSession(ctx),
    byMeaning: recall.meaning.modelInstalled(),
    ...(remote === undefined ? {} : { remote }),
  });
  const problem = warning ?? remoteProblem;
  if (problem) state.notice = { kind: "warning", text: problem };
  const notices = recall.takeNotices();
  if (notices.length > 0 && !problem)
    state.notice = { kind: "info", text: notices.map((n: Notice) => n.message).join(" ") };
  // The picker shows the index as it is at once, and refreshes once the library's freshness check
  // ran.
  const service: PickerService = {
    search: async ({ related, remote, ...request }) => {
      if (remote !== undefined)
        return (
          await recall.archive.search(remote, {
            query: request.query,
            limit: request.limit,
            ...(request.content ? { content: request.content } : {}),
          })
        ).hits;
      return related
        ? (
            await recall.related({
              session: related,
              limit: request.limit,
              cwd: request.cwd,
              sync: false,
            })
          ).hits
        : (await recall.search({ ...request, sync: false })).hits;
    },
    catchUp: async ({ remote, ...request }) => {
      // The archive has no freshness check of this machine's to wait for.
      if (remote !== undefined) return { notices: [], indexBusy: false };
      await recall.search(request);
      const notices = recall.takeNotices();
      return {
        notices: notices.map((n) => n.message),
        indexBusy: notices.some((n) => n.code === "INDEX_BUSY"),
      };
    },
    read: (ref, options) => recall.read(ref, options),
    readArchived: async (hit, options) =>
      recall.archive.read(hit.origin.remote, hit.id, { limit: options.limit }),
    pull: async (hit) => recall.archive.pull(hit.origin.remote, hit.id),
  };

  const outcome = await ctx.ui.custom<PickerOutcome>(
    (tui, theme, keybindings, done) => {
      const picker = new RecallPicker({
        tui,
        theme,
        keybindings,
        done,
        service,
        state,
        measure: visibleWidth,
        // The TUI draws a fake cursor in reverse video, or puts the terminal's own cursor there.
        cursor: (cell, focused) => (focused ? CURSOR_MARKER : "") + renderFakeCursor(cell),
      });
      picker.start();
      return picker;
    },
    {
      overlay: true,
      overlayOptions: { anchor: "center", width: "96%", minWidth: 40, maxHeight: "100%" },
      blocked: { kind: "question", message: "Pick a session to resume" },
    },
  );
  if (!outcome) return;
  if (outcome.type === "resume") await resume(ctx, outcome.hit);
  else await fork(recall, ctx, outcome.hit);
}

async function resume(ctx: ExtensionCommandContext, hit: SearchHit): Promise<void> {
  const name = sessionTitle(hit);
  try {
    const { cancelled } = await ctx.switchSession(hit.path, {
      withSession: async (next) => next.ui.notify(`Resumed "${name}"`, "info"),
    });
    if (cancelled) ctx.ui.notify("The switch was cancelled; staying in this session.", "info");
  } catch (error) {
    ctx.ui.notify(
      `Could not resume "${name}": ${errorText(error)}. Run /recall again and pick it to fork it into this folder.`,
      "error",
    );
  }
}

/** Pi will not open a session whose folder is gone; a fork of it into this folder it will. */
async function fork(recall: Recall, ctx: ExtensionCommandContext, hit: SearchHit): Promise<void> {
  const name = sessionTitle(hit);
  const cwd = ctx.cwd;
  try {
    // Into Pi's folder for this project, or into the custom sessions folder if there is one.
    const locations = recall.locations;
    const forked = SessionManager.forkFrom(
      hit.path,
      cwd,
      locations.layout === "flat" ? locations.sessionsDir : undefined,
    );
    const file = forked.getSessionFile();
    if (!file) throw new Error("Pi did not write the fork to a file");
    const { cancelled } = await ctx.switchSession(file, {
      withSession: async (next) => next.ui.notify(`Forked "${name}" into ${cwd}`, "info"),
    });
    if (cancelled) ctx.ui.notify("The switch was cancelled; staying in this session.", "info");
  } catch (error) {
    ctx.ui.notify(`Could not fork "${name}": ${errorText(error)}`, "error");
  }
}

async function reindex(recall: Recall, ctx: ExtensionCommandContext, out: Output): Promise<void> {
  const tui = ctx.mode === "tui";
  if (tui) ctx.ui.setStatus("recall", "recall: rebuilding the index…");
  else out.info("Rebuilding the recall index…");
  try {
    const report = await recall.sync({
      rebuild: true,
      onProgress: (p) => {
        if (tui)
          ctx.ui.setStatus(
            "recall",
            `recall: rebuilding the index, ${p.filesDone}/${p.filesTotal} files`,
          );
      },
    });
    showNotices(recall, out, report.notices);
    if (report.busy) {
      out.warn(
        "another recall process kept the index busy; nothing was rebuilt, try again in a moment",
      );
      return;
    }
    const failed =
      report.failed.length > 0
        ? `; ${report.failed.length} could not be read (${report.failed[0]!.path}: ${report.failed[0]!.reason}${report.failed.length > 1 ? ", …" : ""})`
        : "";
    out.info(
      `Rebuilt the recall index from ${report.discovered} session files${failed}. Tags are kept.`,
    );
  } finally {
    if (tui) ctx.ui.setStatus("recall", undefined);
  }
}

/**
 * How the model features ask inside Pi: Pi's own registry, with the model chosen (or this
 * session's).
 */
function callerIn(ctx: ExtensionCommandContext) {
  return (model: string | undefined) => piModelCaller(ctx, model);
}

/** A result as one line: the session and its tags, or why it has none. */
function resultLine(result: AutoTagResult): string {
  return result.type === "tagged"
    ? `${result.id.slice(0, 8)}: ${formatTags(result.tags)}`
    : `${result.id.slice(0, 8)}: ${result.type}, ${result.reason}`;
}

async function autotagThisSession(
  recall: Recall,
  ctx: ExtensionCommandContext,
  out: Output,
): Promise<void> {
  const ref = currentSessionRef(ctx);
  if (ctx.mode === "tui") ctx.ui.setStatus("recall", "recall: asking the model for tags…");
  try {
    const [result] = await recall.models.autoTag([ref], {
      caller: callerIn(ctx),
      ...(ctx.signal ? { signal: ctx.signal } : {}),
    });
    if (!result) return;
    if (result.type === "tagged")
      out.info(
        `Tagged this session ${formatTags(result.tags)} (automatic). Its tags: ${formatTags((await recall.tags.of(ref)).tags)}.`,
      );
    else out.warn(`no tags for this session: ${result.reason}`);
  } finally {
    if (ctx.mode === "tui") ctx.ui.setStatus("recall", undefined);
  }
}

async function autotagUntagged(
  recall: Recall,
  ctx: ExtensionCommandContext,
  out: Output,
  yes: boolean,
): Promise<void> {
  const model = recall.models.modelFor("autoTags");
  // Which model will answer, by name, before anything is sent.
  const caller = callerIn(ctx)(model);
  const sessions = await recall.tags.untagged();
  if (sessions.length === 0) {
    out.info("Every session already has tags.");
    return;
  }
  const question = `${sessions.length} session${sessions.length === 1 ? "" : "s"} will be sent, one request each, to ${caller.model}. The provider may charge for them.`;
  if (!yes) {
    if (!ctx.hasUI) {
      out.warn(`${question} Run /recall autotag --all-untagged --yes to go ahead.`);
      return;
    }
    if (!(await ctx.ui.confirm(`Auto-tag ${sessions.length} untagged sessions?`, question))) return;
  }
  const refs = sessions.map((s) => ({ id: s.id, path: s.path, cwd: s.cwd }));
  const stop = new AbortController();
  let tagged = 0;
  let failed = 0;
  const run = (onResult: (result: AutoTagResult, done: number) => void) =>
    recall.models.autoTag(refs, {
      caller: () => caller,
      signal: stop.signal,
      onResult: (result, done) => onResult(result, done),
    });

  if (ctx.mode !== "tui") {
    const results = await run((result) =>
      result.type === "tagged" ? tagged++ : result.type === "failed" && failed++,
    );
    out.info(
      `Auto-tagged ${tagged} of ${sessions.length} sessions with ${caller.model}${failed ? `; ${failed} failed (${resultLine(results.find((r) => r.type === "failed")!)})` : ""}.`,
    );
    return;
  }
  ctx.ui.setStatus("recall", `recall: auto-tagging 0/${sessions.length}`);
  try {
    await ctx.ui.custom<void>(
      (tui, _theme, keybindings, done) => {
        const view = new AutotagProgress(
          {
            total: sessions.length,
            done: 0,
            tagged: 0,
            failed: 0,
            model: caller.model ?? "Pi's model",
            stopping: false,
          },
          {
            keybindings,
            onCancel: () => stop.abort(),
            requestRender: () => tui.requestRender(),
            measure: visibleWidth,
          },
        );
        run((result, count) => {
          if (result.type === "tagged") tagged++;
          else if (result.type === "failed") failed++;
          view.update({ done: count, tagged, failed, last: resultLine(result) });
          ctx.ui.setStatus("recall", `recall: auto-tagging ${count}/${sessions.length}`);
        }).then(
          () => done(),
          (error: unknown) => {
            out.error(error instanceof Error ? error.message : String(error));
            done();
          },
        );
        return view;
      },
      { overlay: true, overlayOptions: { anchor: "center", width: "70%", minWidth: 40 } },
    );
  } finally {
    ctx.ui.setStatus("recall", undefined);
  }
  const stopped = stop.signal.aborted ? ", stopped" : "";
  out.info(
    `Auto-tagged ${tagged} of ${sessions.length} sessions with ${caller.model}${failed ? `, ${failed} failed` : ""}${stopped}. #tag searches find them now.`,
  );
}

/** `/recall model`: a pick among the models Pi can use, saved in recall's config. */
async function chooseModel(
  recall: Recall,
  ctx: ExtensionCommandContext,
  out: Output,
): Promise<void> {
  const current = recall.models.modelFor("autoTags") ?? recall.models.modelFor("ask");
  const names = ctx.modelRegistry.getAvailable().map(modelName);
  if (names.length === 0) {
    out.warn("Pi has no model with credentials; log in with /login first");
    return;
  }
  if (!ctx.hasUI) {
    out.info(
      `Models: ${names.join(", ")}. Auto-tagging and asking use ${current ?? "this session's model"}.`,
    );
    return;
  }
  const choice = await ctx.ui.select(
    `Model for auto-tagging and asking (now: ${current ?? "this session's model"})`,
    names,
  );
  if (!choice) return;
  try {
    recall.models.choose(choice);
  } catch (error) {
    if (error instanceof RecallError) out.error(error.message);
    else throw error;
    return;
  }
  out.info(`Auto-tagging and asking now use ${choice} (saved in ${recall.config().path}).`);
}

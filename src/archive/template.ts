/**
 * The archive's index template, created and versioned by recall: `<alias>-v1` (for the default
 * alias, `recall-sessions-v1`) makes the index `<alias>-v1` with the alias `<alias>` in front, so
 * a later mapping is a new index reindexed behind the same alias.
 *
 * The analyzer is as close to the local one (native/src/words/tokenizer.rs) as OpenSearch's own
 * parts allow: every character that is not a letter, digit or mark ends a word (as locally, so
 * `foo_bar`, `v1.2.3` and `don't` are two or three words, where OpenSearch's `standard` keeps them
 * whole), lower case, ASCII folding (`Ørsted` → `orsted`), Chinese, Japanese and Korean as pairs of
 * characters (`cjk_bigram`). The one difference found is in docs/archive.md and in
 * test/archive-push.test.ts.
 */
import type { Client } from "@opensearch-project/opensearch";

export const TEMPLATE_VERSION = 1;

export function templateName(alias: string): string {
  return `${alias}-v${TEMPLATE_VERSION}`;
}

/** The concrete index behind the alias. */
export function indexName(alias: string): string {
  return `${alias}-v${TEMPLATE_VERSION}`;
}

/** The analyzer of the archive's text fields. */
export const ANALYZER = "recall_text";

const ANALYSIS = {
  char_filter: {
    recall_separators: {
      type: "pattern_replace",
      pattern: "[^\\p{L}\\p{N}\\p{M}]+",
      replacement: " ",
    },
  },
  analyzer: {
    recall_text: {
      type: "custom",
      char_filter: ["recall_separators"],
      tokenizer: "standard",
      filter: ["lowercase", "asciifolding", "cjk_bigram"],
    },
  },
} as const;

const keyword = { type: "keyword" } as const;

function template(alias: string) {
  return {
    index_patterns: [indexName(alias)],
    version: TEMPLATE_VERSION,
    template: {
      aliases: { [alias]: {} },
      settings: { analysis: ANALYSIS },
      mappings: {
        dynamic: "strict",
        properties: {
          session_id: keyword,
          entry_id: keyword,
          /** The message's place in its session (joined messages count once). */
          position: { type: "integer" },
          role: keyword,
          kind: keyword,
          tool: keyword,
          text: { type: "text", analyzer: "recall_text" },
          session_name: { type: "text", analyzer: "recall_text" },
          project: keyword,
          folder: keyword,
          machine: keyword,
          user: keyword,
          /**
           * Whole for `#tag` filters; by words (`tags.text`) for queries, as the local tag text.
           */
          tags: { type: "keyword", fields: { text: { type: "text", analyzer: "recall_text" } } },
          timestamp: { type: "date", format: "epoch_millis" },
          session_created: { type: "date", format: "epoch_millis" },
          redactions: { type: "integer" },
        },
      },
    },
  };
}

/** The version of the template on the remote; undefined when it has none. */
export async function installedVersion(client: Client, alias: string): Promise<number | undefined> {
  const exists = await client.indices.existsIndexTemplate({ name: templateName(alias) });
  if (!exists.body) return undefined;
  const found = await client.indices.getIndexTemplate({ name: templateName(alias) });
  const version = found.body.index_templates[0]?.index_template.version;
  return typeof version === "number" ? version : undefined;
}

/** Puts the template (unless this version is there) and creates the index behind the alias. */
export async function ensureIndex(client: Client, alias: string): Promise<void> {
  if ((await installedVersion(client, alias)) !== TEMPLATE_VERSION) {
    await client.indices.putIndexTemplate({
      name: templateName(alias),
      body: template(alias) as never,
    });
  }
  const exists = await client.indices.existsAlias({ name: alias });
  if (exists.body) return;
  try {
    await client.indices.create({ index: indexName(alias) });
  } catch (error) {
    // Another machine created it meanwhile.
    if (
      (error as { body?: { error?: { type?: string } } }).body?.error?.type !==
      "resource_already_exists_exception"
    )
      throw error;
  }
}

import { describe, expect, it } from "vitest";
import { normalizeTag, parseTags } from "../src/tags/normalize.js";
import { hasText, parseTagQuery } from "../src/tags/query-tags.js";

describe("normalizeTag", () => {
  it.each([
    ["#Rust/Search!", "rust-search"],
    ["rust", "rust"],
    ["#rust", "rust"],
    ["##rust", "rust"],
    ["RUST-search", "rust-search"],
    ["rust search", "rust-search"],
    ["rust - search", "rust-search"],
    ["rust--search", "rust-search"],
    ["-rust-", "rust"],
    ["  #wip  ", "wip"],
    ["snake_case", "snake_case"],
    ["_private_", "_private_"],
    ["v1.2", "v1-2"],
    ["C++", "c"],
    ["k8s", "k8s"],
    ["2026", "2026"],
    ["Café", "café"],
    ["cafe\u0301", "café"], // decomposed é: one tag with the composed one
    ["日本語", "日本語"],
    ["Привет", "привет"],
    ["🚀launch", "launch"],
    ["#", ""],
    ["!!!", ""],
    ["---", ""],
    ["", ""],
  ])("%j → %j", (raw, tag) => {
    expect(normalizeTag(raw)).toBe(tag);
  });
});

describe("parseTags", () => {
  it("normalizes and drops repeats, keeping the order", () => {
    expect(parseTags(["#B", "a", "b", "#A"])).toEqual(["b", "a"]);
  });

  it("rejects a tag that normalizes to nothing, naming it", () => {
    expect(() => parseTags(["ok", "#!!"])).toThrow(/"#!!" is not a tag/);
    expect(() => parseTags(["#"])).toThrow(/not a tag/);
  });

  it("rejects a tag too long to be one", () => {
    expect(() => parseTags(["x".repeat(65)])).toThrow(/too long/);
    expect(parseTags(["x".repeat(64)])).toHaveLength(1);
  });
});

describe("parseTagQuery", () => {
  it("takes #tags and -#tags out of the text", () => {
    expect(parseTagQuery("helm #Deploy -#wip chart")).toEqual({
      text: "helm   chart",
      include: ["deploy"],
      exclude: ["wip"],
    });
  });

  it("keeps several tags, each once", () => {
    expect(parseTagQuery("#a #b #a")).toMatchObject({ include: ["a", "b"], exclude: [] });
  });

  it("leaves # inside words, alone, or inside a quoted phrase as text", () => {
    expect(parseTagQuery('c# issue # 5 "see #tag here"')).toEqual({
      text: 'c# issue # 5 "see #tag here"',
      include: [],
      exclude: [],
    });
  });

  it("keeps the trailing space that turns prefix matching off", () => {
    expect(parseTagQuery("deploy #k8s").text).toBe("deploy ");
    expect(parseTagQuery("#k8s deploy").text).toBe(" deploy");
  });

  // Issue 20: odd queries never error; a hashtag with nothing to make a tag of is text.
  it("takes a hashtag with nothing to make a tag of as text", () => {
    expect(parseTagQuery("deploy #!!")).toEqual({ text: "deploy #!!", include: [], exclude: [] });
  });

  it("tells a tag-only query from one with words left", () => {
    expect(hasText(parseTagQuery("#a -#b"))).toBe(false);
    expect(hasText(parseTagQuery("#a :: ()"))).toBe(false);
    expect(hasText(parseTagQuery("#a deploy"))).toBe(true);
  });
});

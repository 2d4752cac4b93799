//! The model's tokens of a text: BERT's WordPiece, as its `tokenizer.json` sets it up and as Hugging
//! Face's tokenizers reads that file, one text at a time, unpadded, cut to `MAX_TOKENS`:
//!
//! 1. the file's added tokens (`[CLS]`, `[MASK]`, …) are found in the text as written and are their ids;
//! 2. the rest is normalized (BertNormalizer): control characters dropped, every white space a
//!    space, CJK ideographs spaced apart, accents stripped (decomposed, nonspacing marks dropped),
//!    lower case — as the file's settings say;
//! 3. split into words (BertPreTokenizer) at white space, and around each punctuation character
//!    (ASCII punctuation or a Unicode `P*` character);
//! 4. each word cut into the longest pieces the vocabulary holds, from its start, later pieces
//!    with the `##` prefix; a word with no such cut, or longer than the file's limit, is `[UNK]`;
//! 5. `[CLS]` first and `[SEP]` last.
//!
//! The words are read lazily: a long text is read only as far as its first MAX_TOKENS tokens reach.
//! Character classes come from current Unicode tables; Hugging Face's are Unicode 9's, so a
//! character assigned since may be classed otherwise (none of test/fixtures/meaning/tokens.json).

use std::collections::HashMap;
use std::path::Path;

use serde::Deserialize;
use unicode_normalization::UnicodeNormalization;
use unicode_properties::{GeneralCategory, GeneralCategoryGroup, UnicodeGeneralCategory};

use crate::package::{read_model_file, unusable, Result, TOKENIZER_FILE_LIMIT};
use crate::packing::{Packer, Unpacker};
use crate::vocabulary::Vocabulary;

/// The tokens a text is read to, `[CLS]` and `[SEP]` included (sentence-transformers' limit for
/// this model; its position table holds 512). The rest of a longer text is not read.
pub const MAX_TOKENS: usize = 256;

pub struct Tokens {
    vocab: Vocabulary,
    /// Added tokens, matched in the text before it is normalized, longest first.
    added: Vec<(String, u32)>,
    normalizer: Normalizer,
    prefix: String,
    unknown: u32,
    max_word_chars: usize,
    first: u32,
    last: u32,
}

/// The parts of tokenizer.json the tokenizer follows, and the type each must be (the file says it
/// in each part's `type`).
#[derive(Deserialize)]
struct File {
    added_tokens: Vec<AddedToken>,
    normalizer: Normalizer,
    post_processor: PostProcessor,
    model: WordPiece,
}

const TYPES: [(&str, &str); 4] = [
    ("normalizer", "BertNormalizer"),
    ("pre_tokenizer", "BertPreTokenizer"),
    ("post_processor", "TemplateProcessing"),
    ("model", "WordPiece"),
];

#[derive(Deserialize)]
struct AddedToken {
    id: u32,
    content: String,
    normalized: bool,
}

#[derive(Deserialize, Clone, Copy)]
struct Normalizer {
    clean_text: bool,
    handle_chinese_chars: bool,
    strip_accents: Option<bool>,
    lowercase: bool,
}

#[derive(Deserialize)]
struct PostProcessor {
    single: Vec<serde_json::Value>,
    special_tokens: HashMap<String, Special>,
}

#[derive(Deserialize)]
struct Special {
    ids: Vec<u32>,
}

#[derive(Deserialize)]
struct WordPiece {
    unk_token: String,
    continuing_subword_prefix: String,
    max_input_chars_per_word: usize,
    vocab: HashMap<String, u32>,
}

impl Tokens {
    pub fn load(path: &Path) -> Result<Tokens> {
        let bytes = read_model_file(path, TOKENIZER_FILE_LIMIT)?;
        let text = String::from_utf8(bytes).map_err(|error| unusable(path, &error))?;
        let value: serde_json::Value =
            serde_json::from_str(&text).map_err(|error| unusable(path, &error))?;
        for (part, expected) in TYPES {
            let found = value
                .get(part)
                .and_then(|part| part.get("type"))
                .and_then(|kind| kind.as_str())
                .unwrap_or("missing");
            if found != expected {
                return Err(unusable(
                    path,
                    &format!("its {part} is {found}, not {expected}"),
                ));
            }
        }
        let file: File = serde_json::from_value(value).map_err(|error| unusable(path, &error))?;
        Tokens::from_file(file).map_err(|reason| unusable(path, &reason))
    }

    fn from_file(file: File) -> std::result::Result<Tokens, String> {
        let model = file.model;
        let unknown = *model
            .vocab
            .get(&model.unk_token)
            .ok_or("its unknown token is not in its vocabulary")?;
        let [first, last] = bracketing_tokens(&file.post_processor)?;
        if file.added_tokens.iter().any(|token| token.normalized) {
            return Err(
                "it has added tokens matched after normalizing, which recall does not read"
                    .to_string(),
            );
        }
        let mut added: Vec<_> = file
            .added_tokens
            .into_iter()
            .filter(|token| !token.content.is_empty())
            .map(|token| (token.content, token.id))
            .collect();
        added.sort_by_key(|(content, _)| std::cmp::Reverse(content.len()));
        Ok(Tokens {
            vocab: Vocabulary::Map(model.vocab),
            added,
            normalizer: file.normalizer,
            prefix: model.continuing_subword_prefix,
            unknown,
            max_word_chars: model.max_input_chars_per_word,
            first,
            last,
        })
    }

    /// What the packed model file keeps of the tokenizer (packed.rs): everything it reads by,
    /// so that a process loading the model parses no JSON.
    pub(crate) fn pack(&self, out: &mut Packer) {
        self.vocab.pack(out);
        out.number(self.added.len() as u64);
        for (content, id) in &self.added {
            out.text(content);
            out.number(u64::from(*id));
        }
        let Normalizer {
            clean_text,
            handle_chinese_chars,
            strip_accents,
            lowercase,
        } = self.normalizer;
        let strip = strip_accents.map_or(2, u64::from);
        for flag in [
            u64::from(clean_text),
            u64::from(handle_chinese_chars),
            strip,
            u64::from(lowercase),
        ] {
            out.number(flag);
        }
        out.text(&self.prefix);
        for number in [
            u64::from(self.unknown),
            self.max_word_chars as u64,
            u64::from(self.first),
            u64::from(self.last),
        ] {
            out.number(number);
        }
    }

    /// The tokenizer `pack` wrote; None when `input` does not hold one.
    pub(crate) fn unpack(input: &mut Unpacker) -> Option<Tokens> {
        let id = |input: &mut Unpacker| u32::try_from(input.number()?).ok();
        let vocab = Vocabulary::unpack(input)?;
        let mut added = Vec::new();
        for _ in 0..input.count()? {
            let content = input.text()?;
            added.push((content, id(input)?));
        }
        let mut flag = || input.number().filter(|&flag| flag <= 2);
        let (clean_text, handle_chinese_chars, strip, lowercase) =
            (flag()?, flag()?, flag()?, flag()?);
        let normalizer = Normalizer {
            clean_text: clean_text == 1,
            handle_chinese_chars: handle_chinese_chars == 1,
            strip_accents: (strip != 2).then_some(strip == 1),
            lowercase: lowercase == 1,
        };
        let prefix = input.text()?;
        let unknown = id(input)?;
        let max_word_chars = usize::try_from(input.number()?).ok()?;
        Some(Tokens {
            vocab,
            added,
            normalizer,
            prefix,
            unknown,
            max_word_chars,
            first: id(input)?,
            last: id(input)?,
        })
    }

    /// The largest token id: the model must have an embedding for each.
    pub(crate) fn largest_id(&self) -> u32 {
        self.added
            .iter()
            .map(|(_, id)| *id)
            .fold(self.vocab.largest_id(), u32::max)
            .max(self.first)
            .max(self.last)
    }

    /// The token ids of `text`, as the model reads them: `[CLS]`, the first MAX_TOKENS - 2 tokens, `[SEP]`.
    pub fn ids(&self, text: &str) -> Vec<u32> {
        let room = MAX_TOKENS - 2;
        let mut ids = vec![self.first];
        let mut word = String::new();
        let mut rest = text;
        while ids.len() <= room && !rest.is_empty() {
            let (plain, added) = self.next_added(rest);
            let mut chars = self.normalizer.normalize(plain);
            // Words at white space, a punctuation character a word by itself.
            while ids.len() <= room {
                let c = chars.next();
                let ends_word = c.is_none_or(|c| c.is_whitespace() || is_punctuation(c));
                if ends_word && !word.is_empty() {
                    self.push_pieces(&word, &mut ids);
                    word.clear();
                }
                match c {
                    None => break,
                    Some(c) if is_punctuation(c) => {
                        self.push_pieces(c.encode_utf8(&mut [0; 4]), &mut ids)
                    }
                    Some(c) if !c.is_whitespace() => word.push(c),
                    Some(_) => {}
                }
            }
            match added {
                Some((length, id)) => {
                    ids.push(id);
                    rest = &rest[plain.len() + length..];
                }
                None => rest = "",
            }
        }
        ids.truncate(room + 1);
        ids.push(self.last);
        ids
    }

    /// The text before the first added token in `text` (all of it if none), and that token's length and id.
    fn next_added<'a>(&self, text: &'a str) -> (&'a str, Option<(usize, u32)>) {
        let mut earliest: Option<(usize, usize, u32)> = None;
        for (content, id) in &self.added {
            if let Some(start) = text.find(content.as_str()) {
                // Leftmost first; at one place, the longest (they are sorted longest first).
                if earliest.is_none_or(|(at, _, _)| start < at) {
                    earliest = Some((start, content.len(), *id));
                }
            }
        }
        match earliest {
            Some((start, length, id)) => (&text[..start], Some((length, id))),
            None => (text, None),
        }
    }

    /// The WordPiece ids of `word`: its longest pieces in the vocabulary from the start, or `[UNK]`.
    fn push_pieces(&self, word: &str, ids: &mut Vec<u32>) {
        if word.chars().count() > self.max_word_chars {
            ids.push(self.unknown);
            return;
        }
        let before = ids.len();
        let mut piece = String::new();
        let mut start = 0;
        while start < word.len() {
            let mut end = word.len();
            let found = loop {
                piece.clear();
                if start > 0 {
                    piece.push_str(&self.prefix);
                }
                piece.push_str(&word[start..end]);
                if let Some(id) = self.vocab.get(&piece) {
                    break Some(id);
                }
                match word[start..end].char_indices().next_back() {
                    Some((last, _)) if last > 0 => end = start + last,
                    _ => break None,
                }
            };
            match found {
                Some(id) => ids.push(id),
                None => {
                    ids.truncate(before);
                    ids.push(self.unknown);
                    return;
                }
            }
            start = end;
        }
    }
}

/// The ids of the special tokens the single-text template puts before and after the text.
fn bracketing_tokens(processor: &PostProcessor) -> std::result::Result<[u32; 2], String> {
    let special = |item: &serde_json::Value| -> Option<u32> {
        let name = item.get("SpecialToken")?.get("id")?.as_str()?;
        match &processor.special_tokens.get(name)?.ids[..] {
            [id] => Some(*id),
            _ => None,
        }
    };
    match &processor.single[..] {
        [first, text, last] if text.get("Sequence").is_some() => {
            match (special(first), special(last)) {
                (Some(first), Some(last)) => Ok([first, last]),
                _ => Err("its template's special tokens are not in it".to_string()),
            }
        }
        _ => Err("its template for one text is not [CLS] text [SEP]".to_string()),
    }
}

impl Normalizer {
    /// The characters of `text` as BertNormalizer leaves them, lazily.
    fn normalize(self, text: &str) -> Box<dyn Iterator<Item = char> + '_> {
        let mut chars: Box<dyn Iterator<Item = char>> = Box::new(text.chars());
        if self.clean_text {
            // Tab, line feed and carriage return are controls, but white space for BERT.
            chars = Box::new(
                chars
                    .filter(|&c| !(c == '\0' || c == '\u{fffd}' || is_control(c)))
                    .map(|c| if c.is_whitespace() { ' ' } else { c }),
            );
        }
        if self.handle_chinese_chars {
            // A CJK ideograph becomes a word by itself: spaces around it.
            chars = Box::new(chars.flat_map(|c| {
                let alone = is_cjk_ideograph(c);
                [' ', c, ' ']
                    .into_iter()
                    .skip(usize::from(!alone))
                    .take(if alone { 3 } else { 1 })
            }));
        }
        if self.strip_accents.unwrap_or(self.lowercase) {
            chars = Box::new(
                chars
                    .nfd()
                    .filter(|&c| c.general_category() != GeneralCategory::NonspacingMark),
            );
        }
        if self.lowercase {
            chars = Box::new(chars.flat_map(char::to_lowercase));
        }
        chars
    }
}

/// A control, format or private-use character, other than tab, line feed and carriage return.
fn is_control(c: char) -> bool {
    !matches!(c, '\t' | '\n' | '\r')
        && matches!(
            c.general_category(),
            GeneralCategory::Control | GeneralCategory::Format | GeneralCategory::PrivateUse
        )
}

fn is_punctuation(c: char) -> bool {
    c.is_ascii_punctuation() || c.general_category_group() == GeneralCategoryGroup::Punctuation
}

/// The CJK Unified Ideographs blocks and their extensions A–E, and the compatibility ideographs.
fn is_cjk_ideograph(c: char) -> bool {
    matches!(c as u32, 0x4E00..=0x9FFF | 0x3400..=0x4DBF | 0x20000..=0x2A6DF | 0x2A700..=0x2B73F | 0x2B740..=0x2B81F | 0x2B920..=0x2CEAF | 0xF900..=0xFAFF | 0x2F800..=0x2FA1F)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(vocab: &[&str]) -> Tokens {
        let mut vocab: HashMap<String, u32> = vocab
            .iter()
            .enumerate()
            .map(|(id, piece)| (piece.to_string(), id as u32))
            .collect();
        vocab.insert("[UNK]".into(), 100);
        Tokens {
            vocab: Vocabulary::Map(vocab),
            added: vec![("[MASK]".into(), 103)],
            normalizer: Normalizer {
                clean_text: true,
                handle_chinese_chars: true,
                strip_accents: None,
                lowercase: true,
            },
            prefix: "##".into(),
            unknown: 100,
            max_word_chars: 12,
            first: 101,
            last: 102,
        }
    }

    #[test]
    fn cuts_words_into_the_longest_pieces_of_the_vocabulary() {
        let t = tokens(&["un", "##afford", "##able", "cafe", ",", "##a", "中"]);
        assert_eq!(t.ids("Unaffordable, CAFÉ"), vec![101, 0, 1, 2, 4, 3, 102]);
        // No cut of "unx" into pieces: the whole word is unknown; an over-long word too.
        assert_eq!(t.ids("unx un aaaaaaaaaaaaa"), vec![101, 100, 0, 100, 102]);
        // An ideograph is a word even inside one; an added token is found before lower-casing.
        assert_eq!(
            t.ids("un中[MASK]un [mask]"),
            vec![101, 0, 6, 103, 0, 100, 100, 100, 102]
        );
    }

    #[test]
    fn cuts_a_long_text_at_max_tokens() {
        let t = tokens(&["un"]);
        let ids = t.ids(&"un ".repeat(1000));
        assert_eq!(ids.len(), MAX_TOKENS);
        assert_eq!(
            (ids[0], ids[1], ids[MAX_TOKENS - 2], ids[MAX_TOKENS - 1]),
            (101, 0, 0, 102)
        );
    }
}

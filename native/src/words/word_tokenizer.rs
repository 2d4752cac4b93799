//! Where one word ends and the next begins. Letters and digits make a word and anything else
//! separates words, as in Tantivy's `SimpleTokenizer`, except for the scripts written without
//! spaces between words: a run of Chinese, Japanese or Korean characters is cut into overlapping
//! pairs (`日本語` → `日本`, `本語`), and a lone character stands for itself. A query cut the same
//! way finds any two or more characters in a row (`日本` finds `日本語`), with no dictionary of
//! words to keep up to date. This is the bigram indexing of Lucene's `CJKBigramFilter`.

use tantivy::tokenizer::{Token, TokenStream, Tokenizer};

#[derive(Clone, Default)]
pub struct WordTokenizer {
    token: Token,
}

pub struct WordStream<'a> {
    text: &'a str,
    /// Where the next character to look at starts.
    at: usize,
    token: &'a mut Token,
    /// Inside a run of CJK characters: where its last character starts, and whether a pair
    /// ending there was already given.
    run: Option<(usize, bool)>,
}

impl Tokenizer for WordTokenizer {
    type TokenStream<'a> = WordStream<'a>;
    fn token_stream<'a>(&'a mut self, text: &'a str) -> WordStream<'a> {
        self.token.reset();
        WordStream {
            text,
            at: 0,
            token: &mut self.token,
            run: None,
        }
    }
}

/// Han ideographs, kana and Hangul: the characters cut into pairs.
pub fn is_cjk(c: char) -> bool {
    matches!(c,
        '\u{1100}'..='\u{11FF}'     // Hangul Jamo
        | '\u{3005}'..='\u{3007}'   // 々 〆 〇
        | '\u{3040}'..='\u{30FF}'   // Hiragana, Katakana
        | '\u{3130}'..='\u{318F}'   // Hangul Compatibility Jamo
        | '\u{31F0}'..='\u{31FF}'   // Katakana Phonetic Extensions
        | '\u{3400}'..='\u{4DBF}'   // CJK Extension A
        | '\u{4E00}'..='\u{9FFF}'   // CJK Unified Ideographs
        | '\u{A960}'..='\u{A97F}'   // Hangul Jamo Extended-A
        | '\u{AC00}'..='\u{D7FF}'   // Hangul Syllables, Jamo Extended-B
        | '\u{F900}'..='\u{FAFF}'   // CJK Compatibility Ideographs
        | '\u{FF66}'..='\u{FFDC}'   // half-width Katakana and Hangul
        | '\u{20000}'..='\u{3FFFF}' // CJK Extensions B and later
    )
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() && !is_cjk(c)
}

impl WordStream<'_> {
    fn give(&mut self, from: usize, to: usize) -> bool {
        self.token.offset_from = from;
        self.token.offset_to = to;
        self.token.text.push_str(&self.text[from..to]);
        true
    }

    fn char_end(&self, at: usize) -> usize {
        at + self.text[at..].chars().next().map_or(0, char::len_utf8)
    }

    /// The character at the cursor.
    fn peek(&self) -> Option<char> {
        self.text[self.at..].chars().next()
    }

    /// Moves the cursor past the word characters in front of it and says where they end. ASCII
    /// letters and digits, most of any text, are taken a byte at a time (the tokenizer is most
    /// of a snippet's cost).
    fn word_end(&mut self) -> usize {
        let bytes = self.text.as_bytes();
        loop {
            match bytes.get(self.at) {
                Some(b) if b.is_ascii_alphanumeric() => self.at += 1,
                Some(b) if !b.is_ascii() => match self.peek() {
                    Some(c) if is_word_char(c) => self.at += c.len_utf8(),
                    _ => return self.at,
                },
                _ => return self.at,
            }
        }
    }

    /// Moves the cursor past ASCII characters that separate words.
    fn skip_ascii_separators(&mut self) {
        let bytes = self.text.as_bytes();
        while bytes
            .get(self.at)
            .is_some_and(|b| b.is_ascii() && !b.is_ascii_alphanumeric())
        {
            self.at += 1;
        }
    }
}

impl TokenStream for WordStream<'_> {
    fn advance(&mut self) -> bool {
        self.token.text.clear();
        self.token.position = self.token.position.wrapping_add(1);
        loop {
            if let Some((last, paired)) = self.run {
                match self.peek() {
                    Some(c) if is_cjk(c) => {
                        let next = self.at;
                        self.at += c.len_utf8();
                        self.run = Some((next, true));
                        return self.give(last, self.at);
                    }
                    _ => {
                        self.run = None;
                        if !paired {
                            let end = self.char_end(last);
                            return self.give(last, end);
                        }
                    }
                }
            }
            self.skip_ascii_separators();
            let Some(c) = self.peek() else { return false };
            let from = self.at;
            self.at += c.len_utf8();
            if is_cjk(c) {
                self.run = Some((from, false));
            } else if c.is_alphanumeric() {
                let to = self.word_end();
                return self.give(from, to);
            }
        }
    }

    fn token(&self) -> &Token {
        self.token
    }

    fn token_mut(&mut self) -> &mut Token {
        self.token
    }
}

#[cfg(test)]
mod tests {
    use super::WordTokenizer;
    use tantivy::tokenizer::{TokenStream, Tokenizer};

    fn cut(text: &str) -> Vec<(String, usize)> {
        let mut tokenizer = WordTokenizer::default();
        let mut stream = tokenizer.token_stream(text);
        let mut out = Vec::new();
        while stream.advance() {
            let token = stream.token();
            assert_eq!(&text[token.offset_from..token.offset_to], token.text);
            out.push((token.text.clone(), token.position));
        }
        out
    }

    fn texts(text: &str) -> Vec<String> {
        cut(text).into_iter().map(|(t, _)| t).collect()
    }

    #[test]
    fn latin_words_are_cut_as_before() {
        assert_eq!(
            texts("Hello, happy tax-payer! x2 café"),
            vec!["Hello", "happy", "tax", "payer", "x2", "café"]
        );
        assert!(texts("  ...  ").is_empty());
    }

    #[test]
    fn cjk_runs_become_overlapping_pairs_with_consecutive_positions() {
        assert_eq!(cut("日本語"), vec![("日本".into(), 0), ("本語".into(), 1)]);
        assert_eq!(
            texts("我喜欢北京。你呢"),
            vec!["我喜", "喜欢", "欢北", "北京", "你呢"]
        );
        assert_eq!(texts("서울에서 회의"), vec!["서울", "울에", "에서", "회의"]);
    }

    #[test]
    fn a_lone_cjk_character_stands_for_itself() {
        assert_eq!(texts("第3章 日"), vec!["第", "3", "章", "日"]);
    }

    /// The rules as the module comment states them, a character at a time.
    fn cut_plainly(text: &str) -> Vec<String> {
        let chars: Vec<(usize, char)> = text.char_indices().collect();
        let end_of = |i: usize| chars.get(i).map_or(text.len(), |(at, _)| *at);
        let mut out = Vec::new();
        let mut i = 0;
        while i < chars.len() {
            let c = chars[i].1;
            let mut j = i + 1;
            if super::is_cjk(c) {
                while j < chars.len() && super::is_cjk(chars[j].1) {
                    j += 1;
                }
                if j == i + 1 {
                    out.push(c.to_string());
                }
                for k in i..j.saturating_sub(1) {
                    out.push(text[chars[k].0..end_of(k + 2)].to_owned());
                }
            } else if c.is_alphanumeric() {
                while j < chars.len() && super::is_word_char(chars[j].1) {
                    j += 1;
                }
                out.push(text[chars[i].0..end_of(j)].to_owned());
            }
            i = j;
        }
        out
    }

    #[test]
    fn byte_at_a_time_ascii_cuts_as_the_plain_rules_do() {
        for text in [
            "fix the staging-deploy (v2.3) now!!",
            "  ,,leading and trailing;;  ",
            "naïve café Ørsted Straße x²",
            "tab\tnew\nline\r\nend",
            "mixed日本語and한국어 text 3回",
            "emoji 🚀 between words 🚀",
            "a",
            "",
            "数字123と文字abc",
            "über-cool ΑΒΓ δέλτα",
        ] {
            assert_eq!(texts(text), cut_plainly(text), "{text:?}");
        }
    }

    #[test]
    fn cjk_next_to_latin_splits_where_the_script_changes() {
        assert_eq!(
            texts("Pythonを使う3回"),
            vec!["Python", "を使", "使う", "3", "回"]
        );
    }
}

//! A drawer's index terms: word pairs and sketch bands, each hashed with its room
//! (`resolver.drawer_terms`). These hashes are stored in the database: byte for byte the
//! Python ones, or a drawer written by one core would not be found by the other.

use std::collections::HashSet;

use blake2::digest::{Update, VariableOutput};
use blake2::Blake2bVar;

use super::sketch::BINS;

/// Word pairs kept per drawer (`resolver.drawers.ANCHOR_TERMS`).
pub const ANCHOR_TERMS: usize = 48;
const HEX: &[u8; 16] = b"0123456789abcdef";

/// The hash state after a room's prefix (`wing␟room␟`); each term is hashed from a copy.
pub struct RoomHasher {
    prefix: Blake2bVar,
}

impl RoomHasher {
    pub fn new(wing: &str, room: &str) -> Self {
        let mut prefix = Blake2bVar::new(8).expect("8 is a valid BLAKE2b output size");
        prefix.update(wing.as_bytes());
        prefix.update(b"\x1f");
        prefix.update(room.as_bytes());
        prefix.update(b"\x1f");
        Self { prefix }
    }

    /// The 8-byte digest of the prefix and `word`, as 16 lower-case hex digits.
    pub fn hash(&self, word: &[u8]) -> String {
        let mut hasher = self.prefix.clone();
        hasher.update(word);
        let mut out = [0u8; 8];
        hasher
            .finalize_variable(&mut out)
            .expect("the buffer is the output size");
        let mut text = String::with_capacity(16);
        for byte in out {
            text.push(HEX[usize::from(byte >> 4)] as char);
            text.push(HEX[usize::from(byte & 0xf)] as char);
        }
        text
    }
}

/// Python's `str.isspace`: Unicode's white space and the four separators \x1c to \x1f.
fn is_python_space(c: char) -> bool {
    c.is_whitespace() || ('\x1c'..='\x1f').contains(&c)
}

/// `anchor_terms`: adjacent word pairs (a one-word text: the word), the longest `ANCHOR_TERMS`
/// in code points, then in code point order, each hashed with the room.
pub fn anchor_terms(wing: &str, room: &str, normalized: &str) -> Vec<String> {
    let words: Vec<&str> = normalized
        .split(is_python_space)
        .filter(|word| !word.is_empty())
        .collect();
    let mut pairs: HashSet<String> = words
        .windows(2)
        .map(|pair| format!("{} {}", pair[0], pair[1]))
        .collect();
    if pairs.is_empty() {
        pairs = words.iter().map(|word| (*word).to_owned()).collect();
    }
    let mut chosen: Vec<(usize, String)> = pairs
        .into_iter()
        .map(|term| (term.chars().count(), term))
        .collect();
    // UTF-8 byte order is code point order: the order Python compares strings in.
    chosen.sort_unstable_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
    chosen.truncate(ANCHOR_TERMS);
    let hasher = RoomHasher::new(wing, room);
    chosen
        .iter()
        .map(|(_, term)| hasher.hash(term.as_bytes()))
        .collect()
}

/// `band_terms`: band i of a sketch is bins i and i + 1 (cyclically), keyed with its bucket.
pub fn band_terms(wing: &str, room: &str, sketched: &[String], buckets: &[i64]) -> Vec<String> {
    let hasher = RoomHasher::new(wing, room);
    let bins = sketched.len();
    let mut terms = Vec::with_capacity(buckets.len() * bins);
    let mut key = String::with_capacity(64);
    for bucket in buckets {
        for band in 0..bins {
            key.clear();
            key.push_str("band ");
            key.push_str(&bucket.to_string());
            key.push(' ');
            key.push_str(&band.to_string());
            key.push(' ');
            key.push_str(&sketched[band]);
            key.push(' ');
            key.push_str(&sketched[(band + 1) % bins]);
            terms.push(hasher.hash(key.as_bytes()));
        }
    }
    debug_assert!(sketched.is_empty() || sketched.len() == BINS);
    terms
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_term_is_sixteen_hex_digits() {
        let term = RoomHasher::new("w", "r").hash(b"a b");
        assert_eq!(term.len(), 16);
        assert!(term
            .bytes()
            .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase()));
    }

    #[test]
    fn a_one_word_text_is_its_word() {
        let hasher = RoomHasher::new("w", "r");
        assert_eq!(anchor_terms("w", "r", "hello"), vec![hasher.hash(b"hello")]);
        assert!(anchor_terms("w", "r", "").is_empty());
    }

    #[test]
    fn pairs_keep_the_longest_then_the_first_in_order() {
        let words: Vec<String> = (0..60).map(|i| format!("w{i:02}")).collect();
        let terms = anchor_terms("w", "r", &words.join(" "));
        assert_eq!(terms.len(), ANCHOR_TERMS);
        let hasher = RoomHasher::new("w", "r");
        assert_eq!(terms[0], hasher.hash(b"w00 w01"));
    }

    #[test]
    fn separators_python_splits_on_split_words() {
        assert_eq!(
            anchor_terms("w", "r", "a\x1cb"),
            anchor_terms("w", "r", "a b")
        );
    }
}

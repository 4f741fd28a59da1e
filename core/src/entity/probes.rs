//! The probe and index keys of one entity key, cut from its code points
//! (`castlegraph.resolver.entity_probes` in Python, the same sets).
//!
//! Only slicing and joining: what needs Unicode properties (accent folding, which characters
//! are digits) is decided in Python and passed in, and the accent-folded form is added there.
//! A key Python holds with a lone surrogate is no UTF-8: the functions answer None and the
//! caller runs the Python twin.
use pyo3::prelude::*;
use pyo3::types::{PyFrozenSet, PyString};

/// Segments a partition key cuts (`entity_segments.SEGMENTS`).
const SEGMENTS: usize = 6;
/// The shortest stored key with partition keys (`entity_segments.PARTITION_MIN_LEN`).
const PARTITION_MIN_LEN: usize = 8;
/// The edits a review link spans (`entity_segments.MAX_EDITS`).
const MAX_EDITS: i64 = 2;
/// Below this a key probes and stores only itself (`entity_rules.REVIEW_MIN_KEY_LEN`).
const REVIEW_MIN_KEY_LEN: usize = 4;
/// The shortest key with word-order keys (`entity_rules.TYPO_MIN_KEY_LEN`).
const TYPO_MIN_KEY_LEN: usize = 6;
/// The lengths whose review probes include the depth-2 deletions
/// (`entity_search_keys.DEEP_PROBE_MIN_LEN`, `TWO_EDIT_PROBE_MAX_LEN`).
const DEEP_PROBE_MIN_LEN: usize = 8;
const TWO_EDIT_PROBE_MAX_LEN: usize = 40;

/// A key and the byte offset of each of its code points, then its length in bytes.
struct Key<'a> {
    text: &'a str,
    at: Vec<usize>,
}

impl<'a> Key<'a> {
    fn new(text: &'a str) -> Self {
        let mut at: Vec<usize> = text.char_indices().map(|(i, _)| i).collect();
        at.push(text.len());
        Key { text, at }
    }

    /// Its length in code points.
    fn len(&self) -> usize {
        self.at.len() - 1
    }

    /// Code points `start..end`.
    fn slice(&self, start: usize, end: usize) -> &'a str {
        &self.text[self.at[start]..self.at[end]]
    }

    /// The key without code point `i`.
    fn without(&self, i: usize) -> String {
        let mut out = String::with_capacity(self.text.len());
        out.push_str(self.slice(0, i));
        out.push_str(self.slice(i + 1, self.len()));
        out
    }

    /// The key without code points `i < j`.
    fn without_two(&self, i: usize, j: usize) -> String {
        let mut out = String::with_capacity(self.text.len());
        out.push_str(self.slice(0, i));
        out.push_str(self.slice(i + 1, j));
        out.push_str(self.slice(j + 1, self.len()));
        out
    }
}

/// The key and every key with one code point deleted (`deletion_keys`).
pub fn deletion_keys(key: &str, out: &mut Vec<String>) {
    let cut = Key::new(key);
    out.push(key.to_owned());
    out.extend((0..cut.len()).map(|i| cut.without(i)));
}

/// Every key with two code points deleted (the depth-2 deletions, without depth 0 and 1).
pub fn pair_deletions(key: &str, out: &mut Vec<String>) {
    let cut = Key::new(key);
    for i in 0..cut.len() {
        for j in i + 1..cut.len() {
            out.push(cut.without_two(i, j));
        }
    }
}

/// The words sorted (`sorted_words_key`): UTF-8 orders as code points do.
pub fn sorted_words(key: &str) -> String {
    let mut words: Vec<&str> = key.split(' ').collect();
    if words.len() < 2 {
        return key.to_owned();
    }
    words.sort_unstable();
    words.join(" ")
}

fn bounds(length: usize) -> [usize; SEGMENTS + 1] {
    let mut out = [0; SEGMENTS + 1];
    for (i, bound) in out.iter_mut().enumerate() {
        *bound = i * length / SEGMENTS;
    }
    out
}

/// The (s, t) pairs of segments, `itertools.combinations` order.
fn pairs() -> impl Iterator<Item = (usize, usize)> {
    (0..SEGMENTS).flat_map(|s| (s + 1..SEGMENTS).map(move |t| (s, t)))
}

fn tag(stored_length: usize, s: usize, t: usize, parts: [&str; 3]) -> String {
    format!(
        "{stored_length}:{s}{t}:{}|{}|{}",
        parts[0], parts[1], parts[2]
    )
}

/// The 15 partition keys a key of at least 8 code points stores (`partition_keys`).
pub fn partition_keys(key: &str, out: &mut Vec<String>) {
    let cut = Key::new(key);
    let length = cut.len();
    if length < PARTITION_MIN_LEN {
        return;
    }
    let b = bounds(length);
    for (s, t) in pairs() {
        let end_s = (b[s + 1] + 1).min(length);
        let end_t = (b[t + 1] + 1).min(length);
        let middle = if end_s < b[t] {
            cut.slice(end_s, b[t])
        } else {
            ""
        };
        out.push(tag(
            length,
            s,
            t,
            [cut.slice(0, b[s]), middle, cut.slice(end_t, length)],
        ));
    }
}

/// The probe keys meeting the partition keys of a stored key of `stored_length` within two
/// edits (`_probes_for_length`, its `_probe_plan` worked out inline).
fn probes_for_length(cut: &Key<'_>, stored_length: usize, out: &mut Vec<String>) {
    let length = cut.len();
    let b = bounds(stored_length);
    let difference = length as i64 - stored_length as i64;
    for (s, t) in pairs() {
        let end_s = (b[s + 1] + 1).min(stored_length);
        let end_t = (b[t + 1] + 1).min(stored_length);
        let (prefix_len, suffix_len) = (b[s], stored_length - end_t);
        if prefix_len + suffix_len > length {
            continue;
        }
        let suffix_start = length - suffix_len;
        let (prefix, suffix) = (cut.slice(0, prefix_len), cut.slice(suffix_start, length));
        let middle_len = b[t] as i64 - end_s as i64;
        if middle_len <= 0 {
            out.push(tag(stored_length, s, t, [prefix, "", suffix]));
            continue;
        }
        for d1 in -MAX_EDITS..=MAX_EDITS {
            if d1.abs() + (difference - d1).abs() > MAX_EDITS {
                continue;
            }
            let start = end_s as i64 + d1;
            if start >= prefix_len as i64 && start + middle_len <= suffix_start as i64 {
                let (start, end) = (start as usize, (start + middle_len) as usize);
                out.push(tag(
                    stored_length,
                    s,
                    t,
                    [prefix, cut.slice(start, end), suffix],
                ));
            }
        }
    }
}

/// `partition_probe_keys`: the stored lengths of at least 8 within two of the key's.
fn partition_probes(key: &str, stored_lengths: std::ops::Range<usize>, out: &mut Vec<String>) {
    let cut = Key::new(key);
    let length = cut.len();
    for stored_length in stored_lengths {
        if stored_length >= PARTITION_MIN_LEN && stored_length.abs_diff(length) <= 2 {
            probes_for_length(&cut, stored_length, out);
        }
    }
}

/// `entity_probes.one_edit_keys`: the key alone below 4 code points, else its deletion keys.
pub fn one_edit_keys(key: &str) -> Vec<String> {
    let mut out = Vec::new();
    if key.chars().count() < REVIEW_MIN_KEY_LEN {
        out.push(key.to_owned());
    } else {
        deletion_keys(key, &mut out);
    }
    out
}

/// `entity_probes.review_keys`: one-edit keys, the sorted words' deletion keys, the depth-2
/// deletions where they are sent, and the partition probes.
pub fn review_keys(key: &str) -> Vec<String> {
    let mut out = one_edit_keys(key);
    deletion_keys(&sorted_words(key), &mut out);
    let length = key.chars().count();
    let longer = if (DEEP_PROBE_MIN_LEN..=TWO_EDIT_PROBE_MAX_LEN).contains(&length) {
        pair_deletions(key, &mut out);
        length..length + 3
    } else {
        length.saturating_sub(2)..length + 3
    };
    partition_probes(key, longer, &mut out);
    out
}

/// `entity_probes.stored_keys`: what one spelling stores, less its accent-folded form.
pub fn stored_keys(key: &str, dense: bool) -> Vec<String> {
    let mut out = Vec::new();
    let length = key.chars().count();
    if length < REVIEW_MIN_KEY_LEN {
        out.push(key.to_owned());
        return out;
    }
    deletion_keys(key, &mut out);
    if dense {
        pair_deletions(key, &mut out);
    } else {
        partition_keys(key, &mut out);
    }
    let ordered = sorted_words(key);
    if ordered != key && length >= TYPO_MIN_KEY_LEN {
        deletion_keys(&ordered, &mut out);
    }
    out
}

/// The keys `cut` gives for `key` as a frozenset, or None for a key that is no UTF-8 (a lone
/// surrogate, which Python strings may hold): the caller then asks the Python twin.
fn answer<'py>(
    py: Python<'py>,
    key: &Bound<'py, PyString>,
    cut: impl FnOnce(&str) -> Vec<String>,
) -> PyResult<Option<Bound<'py, PyFrozenSet>>> {
    match key.to_str() {
        Ok(text) => PyFrozenSet::new(py, cut(text).iter().map(String::as_str)).map(Some),
        Err(_) => Ok(None),
    }
}

/// `one_edit_keys` as a frozenset, or None for a key that is no UTF-8.
#[pyfunction(name = "one_edit_keys")]
pub fn py_one_edit_keys<'py>(
    py: Python<'py>,
    key: &Bound<'py, PyString>,
) -> PyResult<Option<Bound<'py, PyFrozenSet>>> {
    answer(py, key, one_edit_keys)
}

/// `review_keys` as a frozenset, or None for a key that is no UTF-8.
#[pyfunction(name = "review_keys")]
pub fn py_review_keys<'py>(
    py: Python<'py>,
    key: &Bound<'py, PyString>,
) -> PyResult<Option<Bound<'py, PyFrozenSet>>> {
    answer(py, key, review_keys)
}

/// `stored_keys` as a frozenset, or None for a key that is no UTF-8.
#[pyfunction(name = "stored_keys")]
pub fn py_stored_keys<'py>(
    py: Python<'py>,
    key: &Bound<'py, PyString>,
    dense: bool,
) -> PyResult<Option<Bound<'py, PyFrozenSet>>> {
    answer(py, key, |text| stored_keys(text, dense))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    fn set(keys: Vec<String>) -> BTreeSet<String> {
        keys.into_iter().collect()
    }

    #[test]
    fn deletions_of_a_short_key() {
        let mut out = Vec::new();
        deletion_keys("abc", &mut out);
        assert_eq!(out, ["abc", "bc", "ac", "ab"]);
        assert_eq!(one_edit_keys("abc"), ["abc"]);
    }

    #[test]
    fn code_points_not_bytes() {
        let mut out = Vec::new();
        deletion_keys("jö", &mut out);
        assert_eq!(out, ["jö", "ö", "j"]);
        let mut pairs = Vec::new();
        pair_deletions("aéz", &mut pairs);
        assert_eq!(pairs, ["z", "é", "a"]);
    }

    #[test]
    fn words_sort_by_code_point() {
        assert_eq!(sorted_words("lovelace ada"), "ada lovelace");
        assert_eq!(sorted_words("zé ab"), "ab zé");
        assert_eq!(sorted_words("single"), "single");
    }

    #[test]
    fn partition_keys_of_a_name() {
        let mut out = Vec::new();
        partition_keys("katarina", &mut out);
        assert_eq!(out.len(), 15);
        assert_eq!(out[0], "8:01:||arina");
        assert_eq!(out[2], "8:03:|ta|na");
        let mut short = Vec::new();
        partition_keys("katrina", &mut short);
        assert!(short.is_empty());
    }

    #[test]
    fn a_review_probe_meets_the_partition_keys_of_two_substitutions() {
        let mut stored = Vec::new();
        partition_keys("katarina", &mut stored);
        let probes = set(review_keys("katerino"));
        assert!(set(stored).iter().any(|key| probes.contains(key)));
    }

    #[test]
    fn stored_keys_of_a_dense_key_are_its_depth_two_deletions() {
        let keys = set(stored_keys("rfc 8975", true));
        assert!(keys.contains("rfc 89") && keys.contains("rfc 8975") && keys.contains("fc 8975"));
        assert_eq!(set(stored_keys("ab", false)), set(vec!["ab".to_owned()]));
    }
}

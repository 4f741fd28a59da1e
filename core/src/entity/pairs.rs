//! Which (row, probe) hits of an in-memory index lookup a rule could use: the probe's one
//! sender against the keys of the row's entity (`resolver.entity_hits.may_use` in Python, the
//! same mask).
//!
//! A pair is kept where either side is unknown, or where one of the row's keys is within two
//! OSA edits of the sender (optimal string alignment: insertions, deletions, substitutions and
//! swaps of two neighbours, no span edited twice, over code points: rapidfuzz's
//! `OSA.distance`), or, failing that, has the same words within one edit once each key's
//! words are sorted. Keys come folded from Python: only code points are compared here. A key
//! Python holds with a lone surrogate is no UTF-8: the function answers None and the caller
//! runs the Python twin.
use std::cell::OnceCell;

use pyo3::exceptions::PyIndexError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString, PyTuple};

use super::probes;
use super::segments::{buffer, cells};

/// Two edits is the widest look-alike any rule considers (`entity_pairs.MAX_FUZZY_DISTANCE`).
const MAX_FUZZY_DISTANCE: usize = 2;
/// Keys whose words, sorted, are within this many edits are a `word_order` pair.
const MAX_REORDERED_DISTANCE: usize = 1;

/// A key's code points, and its words sorted, worked out the first time they are asked for.
pub struct Spelled {
    chars: Vec<char>,
    sorted: OnceCell<Vec<char>>,
}

impl Spelled {
    pub fn new(key: &str) -> Self {
        let mut chars = Vec::with_capacity(key.len()); // no fewer bytes than code points
        chars.extend(key.chars());
        Spelled {
            chars,
            sorted: OnceCell::new(),
        }
    }

    fn has_space(&self) -> bool {
        self.chars.contains(&' ')
    }

    /// The words sorted (`probes::sorted_words`, the one definition of it), as code points.
    fn sorted_words(&self) -> &[char] {
        self.sorted.get_or_init(|| {
            let key: String = self.chars.iter().collect();
            probes::sorted_words(&key).chars().collect()
        })
    }
}

/// The three rows of the OSA table a comparison needs, kept between comparisons.
#[derive(Default)]
pub struct Rows {
    two_up: Vec<usize>,
    up: Vec<usize>,
    row: Vec<usize>,
}

impl Rows {
    /// The OSA distance of `a` and `b`, or `cutoff + 1` where it is larger. Their common
    /// prefix and suffix are set aside first (as rapidfuzz does: they change no distance), and
    /// only the band of cells within `cutoff` of the diagonal is worked out: the others are
    /// further apart.
    pub fn osa(&mut self, a: &[char], b: &[char], cutoff: usize) -> usize {
        let over = cutoff + 1;
        if a.len().abs_diff(b.len()) > cutoff {
            return over;
        }
        let prefix = a.iter().zip(b).take_while(|(x, y)| x == y).count();
        let (a, b) = (&a[prefix..], &b[prefix..]);
        let suffix = a
            .iter()
            .rev()
            .zip(b.iter().rev())
            .take_while(|(x, y)| x == y)
            .count();
        let (a, b) = (&a[..a.len() - suffix], &b[..b.len() - suffix]);
        let (n, m) = (a.len(), b.len());
        if n == 0 || m == 0 {
            return n.max(m).min(over);
        }
        for cells in [&mut self.two_up, &mut self.up, &mut self.row] {
            cells.clear();
            cells.resize(m + 1, over);
        }
        for (j, cell) in self.up.iter_mut().enumerate() {
            *cell = j.min(over);
        }
        let mut best_up = 0;
        for i in 1..=n {
            let (lo, hi) = (i.saturating_sub(cutoff).max(1), (i + cutoff).min(m));
            let row = &mut self.row;
            // The cells beside the band are read by the next rows: beyond `cutoff`, as left.
            row[0] = i.min(over);
            row[lo - 1] = if lo == 1 { row[0] } else { over };
            if hi < m {
                row[hi + 1] = over;
            }
            let mut best = row[0];
            for j in lo..=hi {
                let cost = usize::from(a[i - 1] != b[j - 1]);
                let mut d = (self.up[j] + 1)
                    .min(row[j - 1] + 1)
                    .min(self.up[j - 1] + cost);
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                    d = d.min(self.two_up[j - 2] + 1);
                }
                row[j] = d.min(over);
                best = best.min(row[j]);
            }
            // A path to the end crosses this row or the one above (a swap skips one row).
            if best >= over && best_up >= over {
                return over;
            }
            best_up = best;
            std::mem::swap(&mut self.two_up, &mut self.up);
            std::mem::swap(&mut self.up, &mut self.row);
        }
        self.up[m]
    }

    /// `entity_pairs.may_pair`: within two edits, or the same words within one edit.
    pub fn may_pair(&mut self, mention: &Spelled, key: &Spelled) -> bool {
        if self.osa(&mention.chars, &key.chars, MAX_FUZZY_DISTANCE) <= MAX_FUZZY_DISTANCE {
            return true;
        }
        // Reordered keys differ in length by one at most, and two one-word keys sort as they are.
        if mention.chars.len().abs_diff(key.chars.len()) > MAX_REORDERED_DISTANCE
            || (!mention.has_space() && !key.has_space())
        {
            return false;
        }
        let (sorted_mention, sorted_key) = (mention.sorted_words(), key.sorted_words());
        self.osa(sorted_mention, sorted_key, MAX_REORDERED_DISTANCE) <= MAX_REORDERED_DISTANCE
    }
}

/// For each pair (`pair_probe[i]`, `pair_row[i]`), whether one of the row's keys may pair with
/// the probe's sender: true where either is unknown (None).
pub fn may_use(
    senders: &[Option<Spelled>],
    row_keys: &[Option<Vec<Spelled>>],
    pairs: impl Iterator<Item = (usize, usize)>,
) -> Vec<bool> {
    let mut rows = Rows::default();
    pairs
        .map(|(probe, row)| match (&senders[probe], &row_keys[row]) {
            (Some(sender), Some(keys)) => keys.iter().any(|key| rows.may_pair(sender, key)),
            _ => true,
        })
        .collect()
}

/// A key as code points, or None for one that is no UTF-8.
fn spelled(key: &Bound<'_, PyAny>) -> PyResult<Option<Spelled>> {
    Ok(key.cast::<PyString>()?.to_str().ok().map(Spelled::new))
}

/// Indexes read from an int64 array, each checked against the `limit` it indexes.
pub(crate) fn indexes(
    py: Python<'_>,
    array: &Bound<'_, PyAny>,
    name: &str,
    limit: usize,
) -> PyResult<Vec<usize>> {
    let buf = buffer::<i64>(array, name)?;
    cells(py, &buf, name)?
        .iter()
        .map(|cell| {
            usize::try_from(cell.get())
                .ok()
                .filter(|&i| i < limit)
                .ok_or_else(|| {
                    PyIndexError::new_err(format!("{name}: {} out of range", cell.get()))
                })
        })
        .collect()
}

/// `may_use` as bytes of 0 and 1 (numpy views them as bools), or None where a sender or a key
/// is no UTF-8. `senders`: str or None per probe; `row_keys`: a tuple of keys or None per row;
/// `pair_probe`, `pair_row`: int64 arrays, one place per pair.
#[pyfunction(name = "may_use")]
pub fn py_may_use<'py>(
    py: Python<'py>,
    senders: &Bound<'py, PyAny>,
    row_keys: &Bound<'py, PyAny>,
    pair_probe: &Bound<'py, PyAny>,
    pair_row: &Bound<'py, PyAny>,
) -> PyResult<Option<Bound<'py, PyBytes>>> {
    let mut sent = Vec::new();
    for sender in senders.try_iter()? {
        let sender = sender?;
        sent.push(if sender.is_none() {
            None
        } else {
            match spelled(&sender)? {
                Some(found) => Some(found),
                None => return Ok(None),
            }
        });
    }
    let mut keyed = Vec::new();
    for keys in row_keys.try_iter()? {
        let keys = keys?;
        if keys.is_none() {
            keyed.push(None);
            continue;
        }
        let mut row = Vec::new();
        if let Ok(tuple) = keys.cast::<PyTuple>() {
            row.reserve(tuple.len());
            for key in tuple.iter_borrowed() {
                match spelled(&key)? {
                    Some(found) => row.push(found),
                    None => return Ok(None),
                }
            }
        } else {
            for key in keys.try_iter()? {
                match spelled(&key?)? {
                    Some(found) => row.push(found),
                    None => return Ok(None),
                }
            }
        }
        keyed.push(Some(row));
    }
    let probes = indexes(py, pair_probe, "pair_probe", sent.len())?;
    let rows = indexes(py, pair_row, "pair_row", keyed.len())?;
    if probes.len() != rows.len() {
        return Err(PyIndexError::new_err(
            "pair_probe and pair_row differ in length",
        ));
    }
    let kept = may_use(&sent, &keyed, probes.into_iter().zip(rows));
    let bytes: Vec<u8> = kept.into_iter().map(u8::from).collect();
    Ok(Some(PyBytes::new(py, &bytes)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn osa(a: &str, b: &str, cutoff: usize) -> usize {
        let (a, b) = (Spelled::new(a), Spelled::new(b));
        Rows::default().osa(&a.chars, &b.chars, cutoff)
    }

    fn may_pair(a: &str, b: &str) -> bool {
        Rows::default().may_pair(&Spelled::new(a), &Spelled::new(b))
    }

    #[test]
    fn distances_up_to_the_cutoff() {
        assert_eq!(osa("katarina", "katarina", 2), 0);
        assert_eq!(osa("katarina", "katerina", 2), 1);
        assert_eq!(osa("katarina", "katerino", 2), 2);
        assert_eq!(osa("katarina", "kterino", 2), 3);
        assert_eq!(osa("", "ab", 2), 2);
        assert_eq!(osa("", "abc", 2), 3);
        assert_eq!(osa("abcdef", "ghijkl", 2), 3);
    }

    #[test]
    fn a_swap_of_neighbours_is_one_edit_but_not_twice() {
        assert_eq!(osa("ab", "ba", 2), 1);
        assert_eq!(osa("abcd", "badc", 2), 2);
        // OSA edits no span twice: "ca" -> "abc" is 3, not Damerau's 2.
        assert_eq!(osa("ca", "abc", 5), 3);
    }

    #[test]
    fn code_points_not_bytes() {
        assert_eq!(osa("jösé", "jose", 2), 2);
        assert_eq!(osa("東京", "京東", 2), 1);
        assert_eq!(osa("🙂a", "a🙂", 2), 1);
    }

    #[test]
    fn word_order_within_one_edit() {
        assert!(may_pair("lovelace ada", "ada lovelace"));
        assert!(may_pair("lovelace ada", "ada lovelac"));
        assert!(!may_pair("lovelace ada", "ada lovela"));
        assert!(!may_pair("abcdefgh", "hgfedcba"));
    }

    #[test]
    fn unknown_sides_keep_the_pair() {
        let senders = [Some(Spelled::new("ada")), None];
        let rows = [
            Some(vec![Spelled::new("zzzzzz"), Spelled::new("adb")]),
            None,
        ];
        let pairs = [(0, 0), (0, 1), (1, 0), (1, 1)];
        assert_eq!(
            may_use(&senders, &rows, pairs.into_iter()),
            [true, true, true, true]
        );
        let far = [Some(vec![Spelled::new("zzzzzz")])];
        assert_eq!(may_use(&senders, &far, [(0, 0)].into_iter()), [false]);
    }
}

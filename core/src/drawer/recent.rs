//! The drawers the drawer index took in since its last segment, by term (`RecentTerms`), as
//! `graph.indexes.recent_terms.RecentRows` holds them: each term's rows ascending, until enough
//! drawers make a segment of their own.
//!
//! Keyed by each term's Python hash, all 64 bits of it, as the index's segments are
//! (`key_hashes`): a drawer adds ~160 terms and its write probes ~100, which took the Python
//! twin's dict steps ~55 and ~17 µs, and take this ~20 and ~3.5 (a segment's share included).
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use pyo3::prelude::*;
use pyo3::types::PyBytes;

/// A term's hash taken as the map's own: Python's string hash is SipHash already, its bits
/// spread evenly, and hashing it again cost as much as the rest of an insert.
#[derive(Default)]
pub struct Spread(u64);

impl Hasher for Spread {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(byte);
        }
    }
    fn write_u64(&mut self, value: u64) {
        self.0 = value;
    }
}

type ByHash<V> = HashMap<u64, V, BuildHasherDefault<Spread>>;

/// Each term's rows, ascending; a term a drawer stores twice counts that drawer once.
#[derive(Default)]
pub struct TermRows {
    /// Each term's first row here: most terms have one.
    first: ByHash<i64>,
    /// The terms with more rows than one: those after the first, ascending.
    later: ByHash<Vec<i64>>,
    /// Terms added, a repeat within a drawer included (`entries` of the index).
    entries: usize,
}

impl TermRows {
    /// One drawer's terms (their hashes) at `row`, which follows every row added before.
    pub fn add(&mut self, row: i64, terms: impl IntoIterator<Item = u64>) {
        for term in terms {
            self.entries += 1;
            let first = *self.first.entry(term).or_insert(row);
            if first == row {
                continue;
            }
            let later = self.later.entry(term).or_default();
            if later.last() != Some(&row) {
                later.push(row);
            }
        }
    }

    /// The (probe, row) pairs held for `probes` (hashes, in their order): each probe's rows
    /// ascending.
    pub fn held(&self, probes: impl IntoIterator<Item = u64>) -> (Vec<usize>, Vec<i64>) {
        let (mut places, mut rows) = (Vec::new(), Vec::new());
        for (place, probe) in probes.into_iter().enumerate() {
            let Some(&first) = self.first.get(&probe) else {
                continue;
            };
            let later = self.later.get(&probe).map_or(&[][..], Vec::as_slice);
            places.extend(std::iter::repeat_n(place, 1 + later.len()));
            rows.push(first);
            rows.extend_from_slice(later);
        }
        (places, rows)
    }

    /// Every (hash, row) pair held, for a segment (which sorts them: no order is promised).
    pub fn pairs(&self) -> (Vec<u64>, Vec<i64>) {
        let size = self.first.len() + self.later.values().map(Vec::len).sum::<usize>();
        let (mut hashes, mut rows) = (Vec::with_capacity(size), Vec::with_capacity(size));
        for (&term, &first) in &self.first {
            hashes.push(term);
            rows.push(first);
        }
        for (&term, later) in &self.later {
            hashes.extend(std::iter::repeat_n(term, later.len()));
            rows.extend_from_slice(later);
        }
        (hashes, rows)
    }
}

/// `graph.indexes.recent_terms.PythonRecentTerms` in the core: the terms are Python strings,
/// taken by their hash.
#[pyclass(module = "castlegraph._core")]
#[derive(Default)]
pub struct RecentTerms(TermRows);

fn hashes<'py>(terms: &Bound<'py, PyAny>) -> PyResult<Vec<u64>> {
    terms
        .try_iter()?
        .map(|term| Ok(term?.hash()? as u64))
        .collect()
}

#[pymethods]
impl RecentTerms {
    #[new]
    fn new() -> Self {
        Self::default()
    }

    /// One drawer's stored terms at `row`, after every row added before.
    fn add(&mut self, row: i64, terms: &Bound<'_, PyAny>) -> PyResult<()> {
        self.0.add(row, hashes(terms)?);
        Ok(())
    }

    /// The (probe, row) pairs held for `names`, as two lists: each probe's rows ascending.
    fn held(&self, names: &Bound<'_, PyAny>) -> PyResult<(Vec<usize>, Vec<i64>)> {
        Ok(self.0.held(hashes(names)?))
    }

    /// Every (hash, row) pair held, as native uint64 and int64 bytes, for a segment.
    fn pairs<'py>(&self, py: Python<'py>) -> (Bound<'py, PyBytes>, Bound<'py, PyBytes>) {
        let (hashes, rows) = self.0.pairs();
        let hash_bytes: Vec<u8> = hashes.iter().flat_map(|h| h.to_ne_bytes()).collect();
        let row_bytes: Vec<u8> = rows.iter().flat_map(|r| r.to_ne_bytes()).collect();
        (PyBytes::new(py, &hash_bytes), PyBytes::new(py, &row_bytes))
    }

    #[getter]
    fn entries(&self) -> usize {
        self.0.entries
    }
}

#[cfg(test)]
mod tests {
    use super::TermRows;

    #[test]
    fn a_term_keeps_its_rows_ascending_and_a_repeat_within_a_drawer_once() {
        let mut terms = TermRows::default();
        terms.add(4, [1, 2, 1]);
        terms.add(5, [2, 3]);
        terms.add(6, [2, 2, 1]);
        assert_eq!(terms.entries, 8);
        let (places, rows) = terms.held([9, 2, 1, 3]);
        assert_eq!(places, vec![1, 1, 1, 2, 2, 3]);
        assert_eq!(rows, vec![4, 5, 6, 4, 6, 5]);
    }

    #[test]
    fn the_pairs_are_every_term_and_row_held() {
        let mut terms = TermRows::default();
        terms.add(0, [7, 8]);
        terms.add(1, [8]);
        let (hashes, rows) = terms.pairs();
        let mut pairs: Vec<(u64, i64)> = hashes.into_iter().zip(rows).collect();
        pairs.sort_unstable();
        assert_eq!(pairs, vec![(7, 0), (8, 0), (8, 1)]);
    }
}

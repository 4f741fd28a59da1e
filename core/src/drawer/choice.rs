//! The drawer index's candidate choice (`DrawerIndex.choose_all` in Python, the same rankings):
//! for every probe of a write, its newest live drawers in the index's segments and recent rows,
//! then per write the rarest word pairs and the bands under the cap, ranked by shared probes and
//! id.
//!
//! A choice reads of a probe only its newest `per_term` live rows: the count of a word pair is
//! capped there, a rare pair gives its newest `per_term`, and a band counts only under the cap.
//! So each segment is read from the end of the probe's tag backwards, skipping dead rows and
//! repeats, until it gave that many; numpy read every segment's newest `per_term` entries, then
//! the whole run of a probe where one of them was dead or a repeat.
use std::cmp::Ordering;
use std::collections::HashMap;

use pyo3::buffer::{Element, PyBuffer, ReadOnlyCell};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyString};

use crate::entity::segments::{buffer, cells, shr, Geometry};
use crate::ids::uuid_text;

/// Values read by place, `None` past the end: a numpy array through the buffer protocol, or a
/// slice in the tests.
pub trait Cells<T> {
    fn at(&self, place: usize) -> Option<T>;
    fn count(&self) -> usize;
}

impl<T: Copy> Cells<T> for &[T] {
    fn at(&self, place: usize) -> Option<T> {
        self.get(place).copied()
    }
    fn count(&self) -> usize {
        self.len()
    }
}

impl<T: Element + Copy> Cells<T> for &[ReadOnlyCell<T>] {
    fn at(&self, place: usize) -> Option<T> {
        self.get(place).map(ReadOnlyCell::get)
    }
    fn count(&self) -> usize {
        self.len()
    }
}

/// Native int64 values read from bytes: an `array('q')` may lie anywhere (an empty one's buffer
/// is not aligned for i64, which a typed buffer refuses).
pub struct Int64s<'a>(pub &'a [ReadOnlyCell<u8>]);

impl Cells<i64> for Int64s<'_> {
    fn at(&self, place: usize) -> Option<i64> {
        let start = place.checked_mul(8)?;
        let cells = self.0.get(start..start.checked_add(8)?)?;
        let mut bytes = [0u8; 8];
        for (byte, cell) in bytes.iter_mut().zip(cells) {
            *byte = cell.get();
        }
        Some(i64::from_ne_bytes(bytes))
    }
    fn count(&self) -> usize {
        self.0.len() / 8
    }
}

/// Input the index could not hold: an offset, a row or an id past its array.
#[derive(Debug, PartialEq, Eq)]
pub struct BadInput(pub &'static str);

/// One segment of the key index (`key_segments.Segment`): entries of buckets `first` to `last`,
/// each the tag over the row less `base`.
pub struct Segment<'a> {
    pub entries: &'a dyn Cells<u32>,
    pub offsets: &'a dyn Cells<u32>,
    pub first: u64,
    pub last: u64,
    pub geometry: Geometry,
    pub base: i64,
}

impl Segment<'_> {
    /// Where `hash`'s tag is to be searched, if its bucket is one of the segment's.
    fn search(&self, probe: usize, hash: u64) -> Result<Option<Search>, BadInput> {
        let g = self.geometry;
        let bucket = shr(hash, 64 - g.bucket_bits);
        if bucket < self.first || bucket > self.last {
            return Ok(None);
        }
        let b = (bucket - self.first) as usize;
        let start = self
            .offsets
            .at(b)
            .ok_or(BadInput("offsets short of the buckets"))? as usize;
        let end = self
            .offsets
            .at(b + 1)
            .ok_or(BadInput("offsets short of the buckets"))? as usize;
        if start > end || end > self.entries.count() {
            return Err(BadInput("an offset past the entries, or out of order"));
        }
        Ok(Some(Search {
            probe,
            start,
            lo: start,
            hi: end,
            below: g.lowest_entry(hash),
        }))
    }

    fn row(&self, entry: u32) -> i64 {
        i64::from(self.geometry.row_of(entry)) + self.base
    }
}

/// How an id orders: a UUID by its 16 bytes (the order of its text), another id by its UTF-8.
#[derive(Clone, Copy, Debug)]
pub enum IdKey<'a> {
    Uuid([u8; 16]),
    Text(&'a [u8]),
}

/// Ids compared as Python compares their texts: two UUIDs by their bytes, which order as their
/// texts do, and anything else by the texts themselves.
pub fn compare_ids(a: IdKey<'_>, b: IdKey<'_>) -> Ordering {
    match (a, b) {
        (IdKey::Uuid(x), IdKey::Uuid(y)) => x.cmp(&y),
        (IdKey::Text(x), IdKey::Text(y)) => x.cmp(y),
        (IdKey::Uuid(x), IdKey::Text(y)) => uuid_text(&x).as_slice().cmp(y),
        (IdKey::Text(x), IdKey::Uuid(y)) => x.cmp(uuid_text(&y).as_slice()),
    }
}

/// What the index holds besides its segments, by row.
pub struct Rows<'a> {
    pub dead: &'a dyn Cells<u8>,
    pub lengths: &'a dyn Cells<i64>,
    pub id: &'a dyn Fn(i64) -> Result<IdKey<'a>, BadInput>,
}

impl Rows<'_> {
    fn dead(&self, row: i64) -> Result<bool, BadInput> {
        let place = usize::try_from(row).map_err(|_| BadInput("a negative row"))?;
        Ok(self
            .dead
            .at(place)
            .ok_or(BadInput("a row past the dead rows"))?
            != 0)
    }

    fn length(&self, row: i64) -> Result<i64, BadInput> {
        let place = usize::try_from(row).map_err(|_| BadInput("a negative row"))?;
        self.lengths
            .at(place)
            .ok_or(BadInput("a row past the lengths"))
    }
}

/// One write's probes: `anchors` word pairs then `bands` bands, and the lengths that allow a
/// near copy of it.
#[derive(Clone, Copy, Debug)]
pub struct Write {
    pub anchors: usize,
    pub bands: usize,
    pub low: i64,
    pub high: i64,
}

/// The caps of a candidate search (`drawer_index.Limits`).
#[derive(Clone, Copy, Debug)]
pub struct Caps {
    pub per_term: usize,
    pub rare_terms: usize,
    pub any_len_above: i64,
}

/// A probe: its hash (Python's, as the segments hold it), its text (the tie-break between word
/// pairs equally rare) and the rows the index holds for it outside its segments.
pub struct Probe<'a> {
    pub hash: u64,
    pub text: &'a str,
    pub recent: Vec<i64>,
}

/// A probe's search in one segment's bucket `start..hi`: for past the last entry of its tag,
/// the first entry not below the next tag's lowest (`below` + one row).
struct Search {
    probe: usize,
    start: usize,
    lo: usize,
    hi: usize,
    below: u64,
}

/// Each probe's newest `most` live rows, newest first (all it has if fewer).
///
/// The probes' searches run side by side, a step of each at a time: a step reads an entry that
/// is seldom in the cache (a segment of 100 k drawers holds 63 MB), and the steps of different
/// probes do not wait for each other, where one probe's search after another's waited for each
/// of its reads in turn (two fifths of a write's choice). Each probe's entries are then read
/// from the end of its tag back, skipping dead rows and repeats.
fn newest_live(
    probes: &[Probe<'_>],
    segments: &[Segment<'_>],
    rows: &Rows<'_>,
    most: usize,
) -> Result<Vec<Vec<i64>>, BadInput> {
    let mut found = vec![Vec::new(); probes.len()];
    if most == 0 {
        return Ok(found);
    }
    let mut searches = Vec::with_capacity(probes.len() * segments.len());
    for (s, segment) in segments.iter().enumerate() {
        for (p, probe) in probes.iter().enumerate() {
            if let Some(search) = segment.search(p, probe.hash)? {
                searches.push((s, search));
            }
        }
    }
    let mut open = true;
    while open {
        open = false;
        for (s, search) in &mut searches {
            if search.lo < search.hi {
                let middle = (search.lo + search.hi) >> 1;
                let entry = segments[*s].entries.at(middle).unwrap_or(u32::MAX);
                let after = search.below + (1u64 << segments[*s].geometry.row_bits);
                if u64::from(entry) < after {
                    search.lo = middle + 1;
                } else {
                    search.hi = middle;
                }
                open = true;
            }
        }
    }
    for (s, search) in &searches {
        let segment = &segments[*s];
        let probe_found = &mut found[search.probe];
        let (mut taken, mut previous) = (0, None);
        for place in (search.start..search.lo).rev() {
            let entry = segment.entries.at(place).unwrap_or(0);
            if u64::from(entry) < search.below {
                break; // a lower tag's
            }
            let row = segment.row(entry);
            // Two keys of one drawer in the probe's bucket with its tag: equal, side by side.
            if previous == Some(row) {
                continue;
            }
            previous = Some(row);
            if rows.dead(row)? {
                continue;
            }
            probe_found.push(row);
            taken += 1;
            if taken == most {
                break;
            }
        }
    }
    for (probe, probe_found) in probes.iter().zip(&mut found) {
        for &row in &probe.recent {
            if !rows.dead(row)? {
                probe_found.push(row);
            }
        }
        probe_found.sort_unstable_by(|a, b| b.cmp(a));
        probe_found.dedup();
        probe_found.truncate(most);
    }
    Ok(found)
}

/// Each write's ranked rows: its chosen word pairs' and its bands'.
pub type Chosen = Vec<(Vec<i64>, Vec<i64>)>;

/// `DrawerIndex.choose_all`: for each write, the rows of its `rare_terms` word pairs with the
/// fewest live drawers (capped at `per_term`, then by text; each pair's newest `per_term`) and
/// of its bands with fewer than `per_term`, only those whose length allows a near copy, each
/// ranked by the number of the write's probes that give it, then by id.
pub fn choose(
    probes: &[Probe<'_>],
    writes: &[Write],
    segments: &[Segment<'_>],
    rows: &Rows<'_>,
    caps: Caps,
) -> Result<Chosen, BadInput> {
    let newest = newest_live(probes, segments, rows, caps.per_term)?;
    let mut chosen = Vec::with_capacity(writes.len());
    let mut start = 0;
    for write in writes {
        let anchors = start..start + write.anchors;
        let bands = anchors.end..anchors.end + write.bands;
        if bands.end > probes.len() {
            return Err(BadInput("writes with more probes than given"));
        }
        start = bands.end;
        let near = |row: i64| -> Result<bool, BadInput> {
            let length = rows.length(row)?;
            Ok(length >= write.low && (length <= write.high || length > caps.any_len_above))
        };
        let mut rare: Vec<usize> = anchors.filter(|&p| !newest[p].is_empty()).collect();
        rare.sort_by(|&a, &b| {
            (newest[a].len(), probes[a].text, a).cmp(&(newest[b].len(), probes[b].text, b))
        });
        rare.truncate(caps.rare_terms);
        let mut terms = Vec::new();
        for &p in &rare {
            for &row in &newest[p] {
                if near(row)? {
                    terms.push(row);
                }
            }
        }
        let mut in_bands = Vec::new();
        for p in bands {
            if newest[p].len() < caps.per_term {
                for &row in &newest[p] {
                    if near(row)? {
                        in_bands.push(row);
                    }
                }
            }
        }
        chosen.push((ranked(terms, rows)?, ranked(in_bands, rows)?));
    }
    Ok(chosen)
}

/// The rows by the number of times they come (most first), then by id, then by row.
fn ranked(mut given: Vec<i64>, rows: &Rows<'_>) -> Result<Vec<i64>, BadInput> {
    given.sort_unstable();
    let mut counted: Vec<(usize, IdKey<'_>, i64)> = Vec::new();
    for run in given.chunk_by(|a, b| a == b) {
        counted.push((run.len(), (rows.id)(run[0])?, run[0]));
    }
    counted.sort_by(|a, b| {
        b.0.cmp(&a.0)
            .then_with(|| compare_ids(a.1, b.1))
            .then(a.2.cmp(&b.2))
    });
    Ok(counted.into_iter().map(|(_, _, row)| row).collect())
}

fn bad(error: BadInput) -> PyErr {
    PyValueError::new_err(error.0)
}

/// One segment as Python hands it: entries, offsets, first, last, bucket bits, tag bits, row
/// bits, base.
type SegmentArgs<'py> = (
    Bound<'py, PyAny>,
    Bound<'py, PyAny>,
    u64,
    u64,
    u32,
    u32,
    u32,
    i64,
);

/// `DrawerIndex.choose_all` over the index's own arrays, read in place (buffer protocol):
/// `names` every write's probes in order, `writes` (anchors, bands, low, high) each,
/// `recent_probes` / `recent_rows` the (probe place, row) pairs of the rows held outside the
/// segments, `segments` as `SegmentArgs`, `dead` a byte per row, `lengths` an int64 per row,
/// `uuids` 16 bytes per row, `other_ids` row → UTF-8 of an id that is no UUID. Each write's
/// ranked rows (word pairs', bands'), or None where a probe is no UTF-8 (a lone surrogate):
/// the caller then runs the Python twin.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
pub fn drawer_choice<'py>(
    py: Python<'py>,
    names: &Bound<'py, PyList>,
    writes: Vec<(usize, usize, i64, i64)>,
    recent_probes: Vec<usize>,
    recent_rows: Vec<i64>,
    segments: &Bound<'py, PyList>,
    dead: &Bound<'py, PyAny>,
    lengths: &Bound<'py, PyAny>,
    uuids: &Bound<'py, PyAny>,
    other_ids: &Bound<'py, PyDict>,
    caps: (usize, usize, i64),
) -> PyResult<Option<Chosen>> {
    let texts: Vec<Bound<'py, PyString>> = names
        .iter()
        .map(|name| name.cast_into::<PyString>().map_err(PyErr::from))
        .collect::<PyResult<_>>()?;
    let mut probes = Vec::with_capacity(texts.len());
    for text in &texts {
        let Ok(utf8) = text.to_str() else {
            return Ok(None);
        };
        probes.push(Probe {
            hash: text.hash()? as u64,
            text: utf8,
            recent: Vec::new(),
        });
    }
    if recent_probes.len() != recent_rows.len() {
        return Err(PyValueError::new_err(
            "recent probes and rows differ in length",
        ));
    }
    for (&place, &row) in recent_probes.iter().zip(&recent_rows) {
        probes
            .get_mut(place)
            .ok_or_else(|| PyValueError::new_err("a recent pair's probe past the names"))?
            .recent
            .push(row);
    }
    let given: Vec<SegmentArgs<'py>> = segments.extract()?;
    let mut buffers = Vec::with_capacity(given.len());
    for (entries, offsets, first, last, bucket_bits, tag_bits, row_bits, base) in &given {
        let geometry = Geometry::checked(*bucket_bits, *tag_bits, *row_bits)?;
        if last < first {
            return Err(PyValueError::new_err("geometry out of range"));
        }
        buffers.push((
            buffer::<u32>(entries, "entries")?,
            buffer::<u32>(offsets, "offsets")?,
            (*first, *last, geometry, *base),
        ));
    }
    let mut read = Vec::with_capacity(buffers.len());
    for (entries, offsets, (first, last, geometry, base)) in &buffers {
        read.push((
            cells(py, entries, "entries")?,
            cells(py, offsets, "offsets")?,
            (*first, *last, *geometry, *base),
        ));
    }
    let segments: Vec<Segment<'_>> = read
        .iter()
        .map(
            |(entries, offsets, (first, last, geometry, base))| Segment {
                entries,
                offsets,
                first: *first,
                last: *last,
                geometry: *geometry,
                base: *base,
            },
        )
        .collect();
    let (dead_buf, lengths_buf, uuids_buf): (PyBuffer<u8>, PyBuffer<u8>, PyBuffer<u8>) = (
        buffer(dead, "dead")?,
        buffer(lengths, "lengths")?,
        buffer(uuids, "uuids")?,
    );
    let (dead, lengths, uuids) = (
        cells(py, &dead_buf, "dead")?,
        Int64s(cells(py, &lengths_buf, "lengths")?),
        cells(py, &uuids_buf, "uuids")?,
    );
    let others: HashMap<i64, Bound<'py, PyBytes>> = other_ids.extract()?;
    let others: HashMap<i64, &[u8]> = others.iter().map(|(&r, b)| (r, b.as_bytes())).collect();
    let id = |row: i64| -> Result<IdKey<'_>, BadInput> {
        if let Some(text) = others.get(&row) {
            return Ok(IdKey::Text(text));
        }
        let at = usize::try_from(row).map_err(|_| BadInput("a negative row"))? * 16;
        let cells = uuids
            .get(at..at + 16)
            .ok_or(BadInput("a row past the ids"))?;
        let mut bytes = [0u8; 16];
        for (byte, cell) in bytes.iter_mut().zip(cells) {
            *byte = cell.get();
        }
        Ok(IdKey::Uuid(bytes))
    };
    let rows = Rows {
        dead: &dead,
        lengths: &lengths,
        id: &id,
    };
    let writes: Vec<Write> = writes
        .into_iter()
        .map(|(anchors, bands, low, high)| Write {
            anchors,
            bands,
            low,
            high,
        })
        .collect();
    let (per_term, rare_terms, any_len_above) = caps;
    let caps = Caps {
        per_term,
        rare_terms,
        any_len_above,
    };
    choose(&probes, &writes, &segments, &rows, caps)
        .map(Some)
        .map_err(bad)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One segment of one bucket (bucket bits 0): tags of 4 bits, rows of 4.
    impl<T: Copy, const N: usize> Cells<T> for [T; N] {
        fn at(&self, place: usize) -> Option<T> {
            self.get(place).copied()
        }
        fn count(&self) -> usize {
            N
        }
    }

    fn one_bucket<'a>(entries: &'a dyn Cells<u32>, offsets: &'a dyn Cells<u32>) -> Segment<'a> {
        Segment {
            entries,
            offsets,
            first: 0,
            last: 0,
            geometry: Geometry {
                bucket_bits: 0,
                tag_bits: 4,
                row_bits: 4,
            },
            base: 0,
        }
    }

    fn tag(t: u64) -> u64 {
        t << 60
    }

    fn no_id<'k>(row: i64) -> Result<IdKey<'k>, BadInput> {
        Ok(IdKey::Uuid([row as u8; 16]))
    }

    #[test]
    fn a_probe_s_newest_live_rows_skip_the_dead_and_repeats() {
        // Tag 1: rows 2, 5, 5, 7, 9 (row 9 dead); tag 3: row 1.
        let entries = [0x12, 0x15, 0x15, 0x17, 0x19, 0x31];
        let offsets = [0, 6];
        let segments = [one_bucket(&entries, &offsets)];
        let dead = [0u8, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0];
        let lengths = [0i64; 12];
        let rows = Rows {
            dead: &dead,
            lengths: &lengths,
            id: &no_id,
        };
        let probe = Probe {
            hash: tag(1),
            text: "a",
            recent: vec![11, 10],
        };
        assert_eq!(
            newest_live(std::slice::from_ref(&probe), &segments, &rows, 3).unwrap()[0],
            vec![11, 10, 7]
        );
        assert_eq!(
            newest_live(std::slice::from_ref(&probe), &segments, &rows, 9).unwrap()[0],
            vec![11, 10, 7, 5, 2]
        );
        assert_eq!(
            newest_live(std::slice::from_ref(&probe), &segments, &rows, 0).unwrap()[0],
            Vec::<i64>::new()
        );
    }

    #[test]
    fn rows_rank_by_shared_probes_then_id() {
        let dead = [0u8; 4];
        let lengths = [0i64; 4];
        let id = |row: i64| Ok(IdKey::Uuid([3 - row as u8; 16]));
        let rows = Rows {
            dead: &dead,
            lengths: &lengths,
            id: &id,
        };
        assert_eq!(
            ranked(vec![0, 1, 2, 1, 3], &rows).unwrap(),
            vec![1, 3, 2, 0]
        );
    }

    #[test]
    fn a_uuid_and_another_id_order_as_their_texts() {
        let uuid = IdKey::Uuid([0xab; 16]);
        assert_eq!(
            &uuid_text(&[0xab; 16]),
            b"abababab-abab-abab-abab-abababababab"
        );
        assert_eq!(
            compare_ids(uuid, IdKey::Text(b"abababab-")),
            Ordering::Greater
        );
        assert_eq!(compare_ids(IdKey::Text(b"b"), uuid), Ordering::Greater);
        assert_eq!(
            compare_ids(IdKey::Text(b"a"), IdKey::Text(b"b")),
            Ordering::Less
        );
    }

    #[test]
    fn an_offset_past_the_entries_is_refused() {
        let entries = [0x12u32];
        let offsets = [0u32, 3];
        let segment = one_bucket(&entries, &offsets);
        assert!(segment.search(0, tag(1)).is_err());
    }

    #[test]
    fn a_write_takes_its_rarest_pairs_and_bands_under_the_cap() {
        // Tag 1 (anchor "a"): rows 0..3; tag 2 (anchor "b"): row 1; tag 3 (band): rows 2, 3.
        let entries = [0x10, 0x11, 0x12, 0x13, 0x21, 0x32, 0x33];
        let offsets = [0, 7];
        let segments = [one_bucket(&entries, &offsets)];
        let dead = [0u8; 4];
        let lengths = [40i64, 40, 40, 9000];
        let rows = Rows {
            dead: &dead,
            lengths: &lengths,
            id: &no_id,
        };
        let probe = |t: u64, text| Probe {
            hash: tag(t),
            text,
            recent: Vec::new(),
        };
        let probes = [probe(1, "a"), probe(2, "b"), probe(3, "c")];
        let write = Write {
            anchors: 2,
            bands: 1,
            low: 30,
            high: 50,
        };
        let caps = Caps {
            per_term: 3,
            rare_terms: 1,
            any_len_above: 2000,
        };
        let chosen = choose(&probes, &[write], &segments, &rows, caps).unwrap();
        assert_eq!(chosen, vec![(vec![1], vec![2, 3])]);
    }
}

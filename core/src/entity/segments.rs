//! A segment's lookup: for sorted probe hashes, the entries of each probe's bucket that carry its
//! tag, found by binary search of the bucket (`Segment._spans` and `Segment.find` in Python).
//!
//! A segment holds `offsets` (one u32 per bucket, where its entries start) and `entries` (one
//! u32 each: the tag over the row, sorted within a bucket). Probes are read straight from the
//! caller's numpy arrays through the buffer protocol; the answers go back as bytes of native
//! i64 that numpy views without parsing.
use pyo3::buffer::{PyBuffer, ReadOnlyCell};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes};

/// How a segment's entries are cut from a 64-bit hash (`Geometry` in Python).
#[derive(Clone, Copy, Debug)]
pub struct Geometry {
    pub bucket_bits: u32,
    pub tag_bits: u32,
    pub row_bits: u32,
}

impl Geometry {
    /// A geometry whose cuts fit a 64-bit hash and a 32-bit entry, or the error Python sees.
    pub fn checked(bucket_bits: u32, tag_bits: u32, row_bits: u32) -> PyResult<Geometry> {
        if bucket_bits > 63 || tag_bits > 64 - bucket_bits || row_bits > 32 {
            return Err(PyValueError::new_err("geometry out of range"));
        }
        Ok(Geometry {
            bucket_bits,
            tag_bits,
            row_bits,
        })
    }

    /// The lowest entry `hash`'s tag can have in its bucket: the tag over a row of 0.
    pub fn lowest_entry(self, hash: u64) -> u64 {
        let tag_mask = if self.tag_bits >= 64 {
            u64::MAX
        } else {
            (1u64 << self.tag_bits) - 1
        };
        (shr(hash, 64 - (self.bucket_bits + self.tag_bits)) & tag_mask) << self.row_bits
    }

    /// An entry's row, less its segment's base.
    pub fn row_of(self, entry: u32) -> u32 {
        if self.row_bits >= 32 {
            entry
        } else {
            entry & ((1u32 << self.row_bits) - 1)
        }
    }
}

/// Where the probes' entries are: `lo`, the first probe of the segment's bucket range, and per
/// probe met (its place past `lo`) the first entry of its tag and past its last.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Spans {
    pub lo: usize,
    pub probes: Vec<i64>,
    pub first: Vec<i64>,
    pub past: Vec<i64>,
}

/// `value >> shift`, 0 when the shift is the whole width (numpy's answer too).
pub(crate) fn shr(value: u64, shift: u32) -> u64 {
    value.checked_shr(shift).unwrap_or(0)
}

/// The first place in `entries[lo..hi]` whose value is not below `target`, or `hi`.
fn lower_bound<E: Fn(usize) -> u32>(entry: &E, mut lo: usize, mut hi: usize, target: u64) -> usize {
    while lo < hi {
        let middle = (lo + hi) >> 1;
        if u64::from(entry(middle)) < target {
            lo = middle + 1;
        } else {
            hi = middle;
        }
    }
    lo
}

/// The first of the sorted hashes `lo..hi` not below `target`, or `hi`.
fn first_not_below<H: Fn(usize) -> u64>(
    hash_at: &H,
    mut lo: usize,
    mut hi: usize,
    target: u64,
) -> usize {
    while lo < hi {
        let middle = (lo + hi) >> 1;
        if hash_at(middle) < target {
            lo = middle + 1;
        } else {
            hi = middle;
        }
    }
    lo
}

/// The spans of sorted `hashes` in a segment of buckets `first` to `last`: every probe of its
/// range with `ends_of_all`, else only those that met an entry of their tag. `entries` is how
/// many entries there are: a bucket a probe reads whose offsets do not lie in order within them
/// is an error, found where it is read (a pass over every offset per call cost ~0.4 ms at 2**21
/// buckets, more than the search itself).
#[allow(clippy::too_many_arguments)]
pub fn spans<E: Fn(usize) -> u32, O: Fn(usize) -> u32, H: Fn(usize) -> u64>(
    entry: E,
    offset: O,
    entries: usize,
    first: u64,
    last: u64,
    g: Geometry,
    (hash_at, probes): (H, usize),
    ends_of_all: bool,
) -> Result<Spans, BadOffsets> {
    let shift = 64 - g.bucket_bits;
    let start_hash = first.checked_shl(shift).unwrap_or(0);
    let lo = first_not_below(&hash_at, 0, probes, start_hash);
    // (last + 1) << shift may pass 2**64: then the range runs to the end.
    let end_hash = u128::from(last + 1) << shift;
    let hi = match u64::try_from(end_hash) {
        Ok(end_hash) => first_not_below(&hash_at, lo, probes, end_hash),
        Err(_) => probes,
    };
    let after = 1u64 << g.row_bits;
    let mut out = Spans {
        lo,
        ..Spans::default()
    };
    for n in 0..hi - lo {
        let hash = hash_at(lo + n);
        let bucket = (shr(hash, shift) - first) as usize;
        let (start, end) = (offset(bucket) as usize, offset(bucket + 1) as usize);
        if start > end || end > entries {
            return Err(BadOffsets);
        }
        let below = g.lowest_entry(hash);
        let begin = lower_bound(&entry, start, end, below);
        if ends_of_all {
            out.probes.push(n as i64);
            out.first.push(begin as i64);
            out.past
                .push(lower_bound(&entry, begin, end, below + after) as i64);
            continue;
        }
        if begin >= end || u64::from(entry(begin) >> g.row_bits) != below >> g.row_bits {
            continue;
        }
        out.probes.push(n as i64);
        out.first.push(begin as i64);
        out.past
            .push(lower_bound(&entry, begin + 1, end, below + after) as i64);
    }
    Ok(out)
}

/// A bucket's offsets out of order or past the entries.
#[derive(Debug, PartialEq, Eq)]
pub struct BadOffsets;

/// A contiguous buffer of `T` (a numpy array), or a clear error.
pub(crate) fn buffer<T: pyo3::buffer::Element>(
    obj: &Bound<'_, PyAny>,
    name: &str,
) -> PyResult<PyBuffer<T>> {
    let buf = PyBuffer::<T>::get(obj).map_err(|e| PyValueError::new_err(format!("{name}: {e}")))?;
    if !buf.is_c_contiguous() {
        return Err(PyValueError::new_err(format!("{name}: not contiguous")));
    }
    Ok(buf)
}

pub(crate) fn cells<'a, T: pyo3::buffer::Element>(
    py: Python<'a>,
    buf: &'a PyBuffer<T>,
    name: &str,
) -> PyResult<&'a [ReadOnlyCell<T>]> {
    buf.as_slice(py)
        .ok_or_else(|| PyValueError::new_err(format!("{name}: not readable as a slice")))
}

fn as_bytes<'py>(py: Python<'py>, values: &[i64]) -> Bound<'py, PyBytes> {
    let mut bytes = Vec::with_capacity(values.len() * 8);
    for value in values {
        bytes.extend_from_slice(&value.to_ne_bytes());
    }
    PyBytes::new(py, &bytes)
}

type SpansAnswer<'py> = (
    usize,
    Bound<'py, PyBytes>,
    Bound<'py, PyBytes>,
    Bound<'py, PyBytes>,
);
/// (positions, rows) where no probe met a long run, else the spans: one of the two is None.
type FindAnswer<'py> = (
    Option<(Bound<'py, PyBytes>, Bound<'py, PyBytes>)>,
    Option<SpansAnswer<'py>>,
);

fn spans_answer<'py>(py: Python<'py>, found: &Spans) -> SpansAnswer<'py> {
    (
        found.lo,
        as_bytes(py, &found.probes),
        as_bytes(py, &found.first),
        as_bytes(py, &found.past),
    )
}

/// `Segment._spans`: (lo, probes, first, past), the three as bytes of native int64.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
pub fn segment_spans<'py>(
    py: Python<'py>,
    entries: &Bound<'py, PyAny>,
    offsets: &Bound<'py, PyAny>,
    first: u64,
    last: u64,
    bucket_bits: u32,
    tag_bits: u32,
    row_bits: u32,
    hashes: &Bound<'py, PyAny>,
    ends_of_all: bool,
) -> PyResult<SpansAnswer<'py>> {
    let g = Geometry::checked(bucket_bits, tag_bits, row_bits)?;
    let found = with_spans(
        py,
        entries,
        offsets,
        (first, last, g),
        hashes,
        ends_of_all,
        |_, spans| spans,
    )?;
    Ok(spans_answer(py, &found))
}

/// `Segment.find` without kinds: (probe position, row) of every entry of a probe's tag, by
/// probe then row, both as bytes of native int64; rows have `base` added. Given `run_starts`
/// (the segment's long runs by kind, `KindRuns.starts`), where a probe meets one the spans
/// instead (`segment_spans`): that probe's kinds must be asked, which the caller does.
#[pyfunction]
#[pyo3(signature = (entries, offsets, first, last, bucket_bits, tag_bits, row_bits, base, hashes, run_starts=None))]
#[allow(clippy::too_many_arguments)]
pub fn segment_find<'py>(
    py: Python<'py>,
    entries: &Bound<'py, PyAny>,
    offsets: &Bound<'py, PyAny>,
    first: u64,
    last: u64,
    bucket_bits: u32,
    tag_bits: u32,
    row_bits: u32,
    base: i64,
    hashes: &Bound<'py, PyAny>,
    run_starts: Option<&Bound<'py, PyAny>>,
) -> PyResult<FindAnswer<'py>> {
    let g = Geometry::checked(bucket_bits, tag_bits, row_bits)?;
    let starts_buf = run_starts
        .map(|s| buffer::<i64>(s, "run_starts"))
        .transpose()?;
    let starts = match &starts_buf {
        Some(buf) => Some(cells(py, buf, "run_starts")?),
        None => None,
    };
    let meets_a_run = |begin: i64| match starts {
        Some(starts) => {
            let (mut lo, mut hi) = (0, starts.len());
            while lo < hi {
                let middle = (lo + hi) >> 1;
                if starts[middle].get() < begin {
                    lo = middle + 1;
                } else {
                    hi = middle;
                }
            }
            lo < starts.len() && starts[lo].get() == begin
        }
        None => false,
    };
    let found = with_spans(
        py,
        entries,
        offsets,
        (first, last, g),
        hashes,
        false,
        |entry, spans| {
            if spans.first.iter().any(|&begin| meets_a_run(begin)) {
                return Err(spans);
            }
            let mut positions = Vec::new();
            let mut rows = Vec::new();
            for ((&probe, &begin), &past) in spans.probes.iter().zip(&spans.first).zip(&spans.past)
            {
                for place in begin as usize..past as usize {
                    positions.push(probe + spans.lo as i64);
                    rows.push(i64::from(g.row_of(entry(place))) + base);
                }
            }
            Ok((positions, rows))
        },
    )?;
    Ok(match found {
        Ok((positions, rows)) => (Some((as_bytes(py, &positions), as_bytes(py, &rows))), None),
        Err(spans) => (None, Some(spans_answer(py, &spans))),
    })
}

/// Checks the arguments, reads the buffers and hands `then` the entry reader and the spans of
/// the segment of buckets `first` to `last` cut by `g` (`Geometry::checked`).
fn with_spans<'py, R>(
    py: Python<'py>,
    entries: &Bound<'py, PyAny>,
    offsets: &Bound<'py, PyAny>,
    (first, last, g): (u64, u64, Geometry),
    hashes: &Bound<'py, PyAny>,
    ends_of_all: bool,
    then: impl FnOnce(&dyn Fn(usize) -> u32, Spans) -> R,
) -> PyResult<R> {
    let (entries_buf, offsets_buf) = (
        buffer::<u32>(entries, "entries")?,
        buffer::<u32>(offsets, "offsets")?,
    );
    let hashes_buf = buffer::<u64>(hashes, "hashes")?;
    let (entries, offsets) = (
        cells(py, &entries_buf, "entries")?,
        cells(py, &offsets_buf, "offsets")?,
    );
    let hashes = cells(py, &hashes_buf, "hashes")?;
    if last < first || offsets.len() as u64 != last - first + 2 {
        return Err(PyValueError::new_err(
            "offsets do not cover the buckets first to last",
        ));
    }
    let entry = |i: usize| entries[i].get();
    let offset = |i: usize| offsets[i].get();
    let hash_at = |i: usize| hashes[i].get();
    let found = spans(
        entry,
        offset,
        entries.len(),
        first,
        last,
        g,
        (hash_at, hashes.len()),
        ends_of_all,
    )
    .map_err(|_| PyValueError::new_err("an offset past the entries, or out of order"))?;
    Ok(then(&entry, found))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One bucket (bucket bits 0) of entries tag | row, tags of 4 bits, rows of 4.
    fn one_bucket(entries: &[u32], hashes: &[u64], ends_of_all: bool) -> Spans {
        let offsets = [0, entries.len() as u32];
        let g = Geometry {
            bucket_bits: 0,
            tag_bits: 4,
            row_bits: 4,
        };
        spans(
            |i| entries[i],
            |i| offsets[i],
            entries.len(),
            0,
            0,
            g,
            (|i| hashes[i], hashes.len()),
            ends_of_all,
        )
        .unwrap()
    }

    #[test]
    fn finds_the_entries_of_a_tag() {
        // tags 1, 1, 3 (rows 2, 5, 1); a probe of tag 1 and one of tag 2.
        let entries = [0x12, 0x15, 0x31];
        let found = one_bucket(&entries, &[1u64 << 60, 2u64 << 60], false);
        assert_eq!(
            found,
            Spans {
                lo: 0,
                probes: vec![0],
                first: vec![0],
                past: vec![2]
            }
        );
    }

    #[test]
    fn ends_of_all_answers_every_probe() {
        let entries = [0x12, 0x15, 0x31];
        let found = one_bucket(&entries, &[1u64 << 60, 2u64 << 60], true);
        assert_eq!(found.probes, vec![0, 1]);
        assert_eq!(found.first, vec![0, 2]);
        assert_eq!(found.past, vec![2, 2]);
    }

    #[test]
    fn offsets_past_the_entries_are_refused_where_read() {
        let g = Geometry {
            bucket_bits: 0,
            tag_bits: 4,
            row_bits: 4,
        };
        let entries = [0x12u32];
        let offsets = [0u32, 3];
        let read = |hashes: &[u64]| {
            spans(
                |i| entries[i],
                |i| offsets[i],
                entries.len(),
                0,
                0,
                g,
                (|i| hashes[i], hashes.len()),
                true,
            )
        };
        assert_eq!(read(&[1u64 << 60]), Err(BadOffsets));
        assert_eq!(read(&[]), Ok(Spans::default()));
    }

    #[test]
    fn an_empty_bucket_meets_nothing() {
        assert_eq!(
            one_bucket(&[], &[5u64 << 60], false).probes,
            Vec::<i64>::new()
        );
    }
}

/// `key_hashes`: Python's own hash of each key (cached in the string, so the same value as
/// `hash(key)`), as a bytearray of native int64 in the keys' order (writable: a build sorts
/// the hashes in place). One pass in Rust where `numpy.fromiter(map(hash, keys))` took a
/// Python step per key.
#[pyfunction]
pub fn key_hashes<'py>(
    py: Python<'py>,
    keys: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyByteArray>> {
    let mut bytes: Vec<u8> = Vec::with_capacity(keys.len().unwrap_or(0) * 8);
    for key in keys.try_iter()? {
        bytes.extend_from_slice(&(key?.hash()? as i64).to_ne_bytes());
    }
    Ok(PyByteArray::new(py, &bytes))
}

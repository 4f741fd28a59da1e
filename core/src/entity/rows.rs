//! The keys of the in-memory entity index's rows, read from the blob that holds them
//! (`RowSpellings.of` in Python, the same tuples): a lookup weighs every row it hits, tens of
//! thousands a batch at a million entities, and one Python call a row cost more than weighing it.
//!
//! Layout (`graph.indexes.row_spellings`): one UTF-8 blob, each row's text ending where `ends`
//! says (uint32, or uint64 once the blob outgrows them); a row's keys come first, joined by
//! 0x1f, and end at its first 0x1e (its record follows) or with its text. An empty text is a
//! row whose keys are unknown: None.
use pyo3::buffer::ReadOnlyCell;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString, PyTuple};

use super::pairs::indexes;
use super::segments::{buffer, cells};

const SEPARATOR: u8 = 0x1f;
const RECORD: u8 = 0x1e;

/// A row's keys from its text (None: unknown, an empty text).
pub fn keys_of(text: &[u8]) -> Option<&[u8]> {
    if text.is_empty() {
        return None;
    }
    let cut = text.iter().position(|&b| b == RECORD).unwrap_or(text.len());
    Some(&text[..cut])
}

/// Where each row's text ends, as the array holds it: 4 bytes a row, or 8.
enum Ends<'a> {
    Narrow(&'a [ReadOnlyCell<u32>]),
    Wide(&'a [ReadOnlyCell<u64>]),
}

impl Ends<'_> {
    fn len(&self) -> usize {
        match self {
            Ends::Narrow(ends) => ends.len(),
            Ends::Wide(ends) => ends.len(),
        }
    }

    fn at(&self, row: usize) -> usize {
        match self {
            Ends::Narrow(ends) => ends[row].get() as usize,
            Ends::Wide(ends) => ends[row].get() as usize,
        }
    }
}

/// `[RowSpellings.of(row) for row in rows]` from its `blob` and `ends`: a tuple of keys per row,
/// or None where they are unknown; None for the whole answer where a row's text is no UTF-8
/// (the twin then says why). `rows`: an int64 array. Only the rows asked for are read.
#[pyfunction]
pub fn row_keys<'py>(
    py: Python<'py>,
    blob: &Bound<'py, PyAny>,
    ends: &Bound<'py, PyAny>,
    rows: &Bound<'py, PyAny>,
) -> PyResult<Option<Bound<'py, PyList>>> {
    let blob_buf = buffer::<u8>(blob, "blob")?;
    let blob = cells(py, &blob_buf, "blob")?;
    let (narrow, wide) = match buffer::<u32>(ends, "ends") {
        Ok(buf) => (Some(buf), None),
        Err(_) => (None, Some(buffer::<u64>(ends, "ends")?)),
    };
    let ends = match (&narrow, &wide) {
        (Some(buf), _) => Ends::Narrow(cells(py, buf, "ends")?),
        (_, Some(buf)) => Ends::Wide(cells(py, buf, "ends")?),
        _ => unreachable!("one of the two widths was read"),
    };
    let answer = PyList::empty(py);
    let mut text = Vec::new();
    for row in indexes(py, rows, "rows", ends.len())? {
        let (start, end) = (if row > 0 { ends.at(row - 1) } else { 0 }, ends.at(row));
        if start > end || end > blob.len() {
            return Err(PyValueError::new_err(format!(
                "ends: row {row} lies outside the blob"
            )));
        }
        text.clear();
        text.extend(blob[start..end].iter().map(ReadOnlyCell::get));
        match keys_of(&text) {
            None => answer.append(py.None())?,
            Some(keys) => {
                let Ok(keys) = std::str::from_utf8(keys) else {
                    return Ok(None);
                };
                let split: Vec<_> = keys
                    .split(char::from(SEPARATOR))
                    .map(|k| PyString::new(py, k))
                    .collect();
                answer.append(PyTuple::new(py, split)?)?;
            }
        }
    }
    Ok(Some(answer))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_end_at_the_record() {
        assert_eq!(keys_of(b""), None);
        assert_eq!(
            keys_of(b"ada\x1fada l\x1eAda\x1fAda L"),
            Some(&b"ada\x1fada l"[..])
        );
        assert_eq!(keys_of(b"zz"), Some(&b"zz"[..]));
    }
}

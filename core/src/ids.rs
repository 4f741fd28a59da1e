//! The in-memory indexes' ids (`graph.indexes.key_segments.KeyIndex`): 16 bytes of UUID a row,
//! written as `str(uuid.UUID(bytes=...))` writes them (lowercase hex, four dashes).
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString};

use crate::entity::segments::{buffer, cells};

const HEX: &[u8; 16] = b"0123456789abcdef";

/// A UUID's text from its 16 bytes.
pub fn uuid_text(bytes: &[u8; 16]) -> [u8; 36] {
    let mut text = [b'-'; 36];
    let mut at = 0;
    for (n, byte) in bytes.iter().enumerate() {
        if matches!(n, 4 | 6 | 8 | 10) {
            at += 1;
        }
        text[at] = HEX[usize::from(byte >> 4)];
        text[at + 1] = HEX[usize::from(byte & 15)];
        at += 2;
    }
    text
}

/// `KeyIndex.ids_of` but for its ids that are no UUID (the caller puts those in): the text of
/// each of `rows`' UUIDs in `uuids` (16 bytes a row). A write reads ~40 ids of its ranked
/// drawers and a mention batch thousands; numpy or a Python step per id cost ~1.4 µs each.
#[pyfunction]
pub fn uuid_texts<'py>(
    py: Python<'py>,
    uuids: &Bound<'py, PyAny>,
    rows: Vec<i64>,
) -> PyResult<Bound<'py, PyList>> {
    let buf = buffer::<u8>(uuids, "uuids")?;
    let uuids = cells(py, &buf, "uuids")?;
    let answer = PyList::empty(py);
    let mut bytes = [0u8; 16];
    for row in rows {
        let at = usize::try_from(row)
            .ok()
            .and_then(|row| row.checked_mul(16))
            .filter(|at| at + 16 <= uuids.len())
            .ok_or_else(|| PyValueError::new_err(format!("row {row} is past the ids")))?;
        for (byte, cell) in bytes.iter_mut().zip(&uuids[at..at + 16]) {
            *byte = cell.get();
        }
        let text = uuid_text(&bytes);
        // Hex digits and dashes: ASCII, so UTF-8.
        let text = std::str::from_utf8(&text).map_err(|e| PyValueError::new_err(e.to_string()))?;
        answer.append(PyString::new(py, text))?;
    }
    Ok(answer)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_uuid_is_written_with_its_dashes() {
        assert_eq!(
            &uuid_text(&[0xab; 16]),
            b"abababab-abab-abab-abab-abababababab"
        );
        let bytes: [u8; 16] = core::array::from_fn(|n| n as u8 * 17);
        assert_eq!(&uuid_text(&bytes), b"00112233-4455-6677-8899-aabbccddeeff");
    }
}

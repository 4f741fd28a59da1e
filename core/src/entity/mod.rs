//! The entity side of the core: the segment search of the in-memory key index
//! (`castlegraph.graph.indexes.key_segments`), the same answers as its numpy code.
use pyo3::prelude::*;

pub mod segments;

/// Adds the entity functions to the `castlegraph._core` module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(segments::segment_spans, m)?)?;
    m.add_function(wrap_pyfunction!(segments::segment_find, m)?)?;
    Ok(())
}

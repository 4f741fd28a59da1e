//! The entity side of the core: the segment search of the in-memory key index
//! (`castlegraph.graph.indexes.key_segments`) and the probe and index keys of an entity key
//! (`castlegraph.resolver.entity_probes`), and the weighing of a lookup's hits against the
//! mention keys that sent them (`castlegraph.resolver.entity_hits.may_use`) with the rows'
//! keys (`castlegraph.graph.indexes.row_spellings`), the same answers as their Python code.
use pyo3::prelude::*;

pub mod pairs;
pub mod probes;
pub mod rows;
pub mod segments;

/// Adds the entity functions to the `castlegraph._core` module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(segments::segment_spans, m)?)?;
    m.add_function(wrap_pyfunction!(segments::segment_find, m)?)?;
    m.add_function(wrap_pyfunction!(segments::key_hashes, m)?)?;
    m.add_function(wrap_pyfunction!(probes::py_one_edit_keys, m)?)?;
    m.add_function(wrap_pyfunction!(probes::py_review_keys, m)?)?;
    m.add_function(wrap_pyfunction!(probes::py_stored_keys, m)?)?;
    m.add_function(wrap_pyfunction!(pairs::py_may_use, m)?)?;
    m.add_function(wrap_pyfunction!(rows::row_keys, m)?)?;
    Ok(())
}

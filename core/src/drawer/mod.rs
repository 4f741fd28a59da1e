//! The drawer side: a text's MinHash sketch and its room-scoped index terms (word pairs and
//! bands), byte for byte those of `resolver.shingles` and `resolver.drawer_terms`, and the
//! in-memory index's candidate choice (`graph.indexes.drawer_index`) and its recent rows by term
//! (`graph.indexes.recent_terms`).

use pyo3::prelude::*;
use pyo3::types::PyTuple;

pub mod choice;
pub mod recent;
pub mod sketch;
pub mod terms;

/// `resolver.shingles.sketch`: one value per bin, as text.
#[pyfunction]
#[pyo3(name = "sketch")]
fn py_sketch<'py>(py: Python<'py>, normalized: &str) -> PyResult<Bound<'py, PyTuple>> {
    let values = py.detach(|| sketch::sketch(normalized));
    PyTuple::new(py, values)
}

/// `resolver.drawer_terms.anchor_terms`: the room-scoped hashes of a text's longest word pairs.
#[pyfunction]
#[pyo3(name = "anchor_terms")]
fn py_anchor_terms(wing: &str, room: &str, normalized: &str) -> Vec<String> {
    terms::anchor_terms(wing, room, normalized)
}

/// `resolver.drawer_terms.band_terms`: the room-scoped hashes of a sketch's bands per bucket.
#[pyfunction]
#[pyo3(name = "band_terms")]
fn py_band_terms(wing: &str, room: &str, sketched: Vec<String>, buckets: Vec<i64>) -> Vec<String> {
    terms::band_terms(wing, room, &sketched, &buckets)
}

/// `resolver.drawer_terms.scoped_hash`: one word's hash in its room.
#[pyfunction]
#[pyo3(name = "scoped_hash")]
fn py_scoped_hash(wing: &str, room: &str, word: &str) -> String {
    terms::RoomHasher::new(wing, room).hash(word.as_bytes())
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(py_sketch, m)?)?;
    m.add_function(wrap_pyfunction!(py_anchor_terms, m)?)?;
    m.add_function(wrap_pyfunction!(py_band_terms, m)?)?;
    m.add_function(wrap_pyfunction!(py_scoped_hash, m)?)?;
    m.add_function(wrap_pyfunction!(choice::drawer_choice, m)?)?;
    m.add_class::<recent::RecentTerms>()?;
    Ok(())
}

//! castlegraph's compiled core: the hot loops of entity resolution and drawer deduplication.
use pyo3::prelude::*;

pub mod entity;

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    entity::register(m)?;
    Ok(())
}

//! castlegraph's compiled core: the hot loops of the rules, with a pure-Python twin of every
//! function (`castlegraph.resolver.core` chooses one at start-up; differential tests hold them
//! to the same answers).
//!
//! Each area registers its own functions on the one module, `castlegraph._core`.

use pyo3::prelude::*;

pub mod drawer;
pub mod entity;
pub mod falkordb;
pub mod ids;

/// The core's version, as the start-up log, health and doctor report it.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", VERSION)?;
    drawer::register(m)?;
    entity::register(m)?;
    falkordb::register(m)?;
    m.add_function(wrap_pyfunction!(ids::uuid_texts, m)?)?;
    Ok(())
}

//! FalkorDB's parameter header (`castlegraph.graph.backends.falkordb_params.params_header`):
//! FalkorDB takes a statement's parameters as a `CYPHER name=value ...` text in front of it, and
//! a mention batch's write sends tens of thousands of strings in it. This writes the very text
//! the FalkorDB client's `stringify_param_value` writes, value by value, without a Python call
//! per value; what it does not write itself (floats, integers beyond 64 bits, other types, a map
//! whose keys the client refuses) it hands to that function, the `fallback`.
use std::fmt::Write;

use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyInt, PyList, PyString, PyTuple};

/// Why a header was not written: a string that is no UTF-8 (Python holds a lone surrogate,
/// which the twin then writes as Python does), or the fallback's own error.
enum Stop {
    Unreadable,
    Raised(PyErr),
}

impl From<PyErr> for Stop {
    fn from(error: PyErr) -> Self {
        Stop::Raised(error)
    }
}

/// `"CYPHER " + "".join(f"`{name}`={stringify_param_value(value)} " ...)`, or None where a
/// string is no UTF-8. The names are castlegraph's own (plain identifiers), as in the twin.
#[pyfunction]
pub fn params_header(
    params: &Bound<'_, PyDict>,
    fallback: &Bound<'_, PyAny>,
) -> PyResult<Option<String>> {
    let mut out = String::from("CYPHER ");
    for (name, value) in params.iter() {
        let written = readable(&name, &mut out).and_then(|()| {
            out.push('=');
            encode(&value, fallback, &mut out)
        });
        match written {
            Ok(()) => out.push(' '),
            Err(Stop::Unreadable) => return Ok(None),
            Err(Stop::Raised(error)) => return Err(error),
        }
    }
    Ok(Some(out))
}

/// A parameter's name between backticks.
fn readable(name: &Bound<'_, PyAny>, out: &mut String) -> Result<(), Stop> {
    let text = name.cast::<PyString>().map_err(PyErr::from)?;
    out.push('`');
    out.push_str(utf8(text)?);
    out.push('`');
    Ok(())
}

/// A Python string's UTF-8, or `Stop::Unreadable` for one that has none (a lone surrogate).
fn utf8<'a>(text: &'a Bound<'_, PyString>) -> Result<&'a str, Stop> {
    text.to_str().map_err(|_| Stop::Unreadable)
}

fn encode(
    value: &Bound<'_, PyAny>,
    fallback: &Bound<'_, PyAny>,
    out: &mut String,
) -> Result<(), Stop> {
    if let Ok(text) = value.cast_exact::<PyString>() {
        quote(utf8(text)?, out);
    } else if let Ok(items) = value.cast_exact::<PyList>() {
        sequence(items.iter(), fallback, out)?;
    } else if let Ok(items) = value.cast_exact::<PyTuple>() {
        sequence(items.iter(), fallback, out)?;
    } else if let Ok(mapping) = value.cast_exact::<PyDict>() {
        map(mapping, fallback, out)?;
    } else if value.is_none() {
        out.push_str("null");
    } else if let Ok(flag) = value.cast_exact::<PyBool>() {
        out.push_str(if flag.is_true() { "True" } else { "False" });
    } else if let Some(number) = value
        .cast_exact::<PyInt>()
        .ok()
        .and_then(|number| number.extract::<i64>().ok())
    {
        write!(out, "{number}").expect("a String takes any write");
    } else {
        by_fallback(value, fallback, out)?;
    }
    Ok(())
}

/// `str(fallback(value))`, as the twin writes any value it does not handle itself.
fn by_fallback(
    value: &Bound<'_, PyAny>,
    fallback: &Bound<'_, PyAny>,
    out: &mut String,
) -> Result<(), Stop> {
    let written = fallback.call1((value,))?.str()?;
    out.push_str(utf8(&written)?);
    Ok(())
}

fn sequence<'py>(
    items: impl Iterator<Item = Bound<'py, PyAny>>,
    fallback: &Bound<'py, PyAny>,
    out: &mut String,
) -> Result<(), Stop> {
    out.push('[');
    for (place, item) in items.enumerate() {
        if place > 0 {
            out.push(',');
        }
        encode(&item, fallback, out)?;
    }
    out.push(']');
    Ok(())
}

/// A map whose keys are all non-empty strings without a backtick, key by key; any other map
/// through the fallback, which writes it or refuses it as the client does (what was written of
/// it before the first such key is taken back).
fn map(
    mapping: &Bound<'_, PyDict>,
    fallback: &Bound<'_, PyAny>,
    out: &mut String,
) -> Result<(), Stop> {
    let start = out.len();
    out.push('{');
    for (place, (key, value)) in mapping.iter().enumerate() {
        let Some(key) = plain_key(&key) else {
            out.truncate(start);
            return by_fallback(mapping.as_any(), fallback, out);
        };
        if place > 0 {
            out.push(',');
        }
        out.push('`');
        out.push_str(key);
        out.push_str("`:");
        encode(&value, fallback, out)?;
    }
    out.push('}');
    Ok(())
}

/// A map key the core writes itself: a UTF-8 string, not empty, without a backtick.
fn plain_key<'a>(key: &'a Bound<'_, PyAny>) -> Option<&'a str> {
    let text = key.cast_exact::<PyString>().ok()?.to_str().ok()?;
    (!text.is_empty() && !text.contains('`')).then_some(text)
}

/// A string as the client quotes it: `""` when empty, else between double quotes with each
/// backslash and double quote escaped by a backslash.
fn quote(text: &str, out: &mut String) {
    out.push('"');
    for piece in text.split_inclusive(['\\', '"']) {
        match piece.as_bytes().last() {
            Some(&last @ (b'\\' | b'"')) => {
                out.push_str(&piece[..piece.len() - 1]);
                out.push('\\');
                out.push(last as char);
            }
            _ => out.push_str(piece),
        }
    }
    out.push('"');
}

/// Registers `params_header` on the `castlegraph._core` module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(params_header, m)?)
}

#[cfg(test)]
mod tests {
    use super::quote;

    fn quoted(text: &str) -> String {
        let mut out = String::new();
        quote(text, &mut out);
        out
    }

    #[test]
    fn quotes_as_the_client_does() {
        assert_eq!(quoted(""), "\"\"");
        assert_eq!(quoted("Ada"), "\"Ada\"");
        assert_eq!(quoted("a\"b"), "\"a\\\"b\"");
        assert_eq!(quoted("a\\b"), "\"a\\\\b\"");
        assert_eq!(quoted("\\\"\\"), "\"\\\\\\\"\\\\\"");
        assert_eq!(quoted("é東🙂"), "\"é東🙂\"");
    }
}

//! One-permutation MinHash of a text's character 5-grams, densified (`resolver.shingles`).
//!
//! A 5-gram is its UTF-8 bytes read as a little-endian integer, hashed `a·x + b mod 2⁶¹ − 1`;
//! its bin is the hash's low 6 bits and its value the rest. The constants and the probe lists
//! are derived from BLAKE2b digests of fixed phrases, as the Python module derives them.

use std::fmt::Write;
use std::sync::LazyLock;

use blake2::digest::{Update, VariableOutput};
use blake2::Blake2bVar;

pub const SHINGLE: usize = 5;
pub const BINS: usize = 64;
const DENSIFY_TRIES: usize = 16;
const PRIME: u64 = (1 << 61) - 1;

/// `_hash64`: the first 8 bytes of an 8-byte BLAKE2b digest, little-endian.
pub fn hash64(text: &str) -> u64 {
    let mut hasher = Blake2bVar::new(8).expect("8 is a valid BLAKE2b output size");
    hasher.update(text.as_bytes());
    let mut out = [0u8; 8];
    hasher
        .finalize_variable(&mut out)
        .expect("the buffer is the output size");
    u64::from_le_bytes(out)
}

struct Constants {
    multiplier: u64,
    offset: u64,
    probes: [[usize; DENSIFY_TRIES]; BINS],
}

static CONSTANTS: LazyLock<Constants> = LazyLock::new(|| {
    let mut probes = [[0usize; DENSIFY_TRIES]; BINS];
    for (bin, tries) in probes.iter_mut().enumerate() {
        for (attempt, probe) in tries.iter_mut().enumerate() {
            *probe = (hash64(&format!("bin {bin} try {}", attempt + 1)) % BINS as u64) as usize;
        }
    }
    Constants {
        multiplier: hash64("shingle multiplier") % (PRIME - 1) + 1,
        offset: hash64("shingle offset") % PRIME,
        probes,
    }
});

/// `value` modulo the Mersenne prime, for values below 2¹²²: 2⁶¹ ≡ 1, so the bits above 61
/// fold back onto the bottom (no division).
fn mersenne(value: u128) -> u64 {
    let folded = (value & u128::from(PRIME)) + (value >> 61);
    let folded = (folded & u128::from(PRIME)) + (folded >> 61);
    let folded = folded as u64;
    if folded >= PRIME {
        folded - PRIME
    } else {
        folded
    }
}

/// The 5-gram's bytes as a little-endian integer, modulo the prime (Horner from the top byte).
/// An ASCII 5-gram is 5 bytes, below the prime already.
fn reduced(bytes: &[u8]) -> u64 {
    if bytes.len() <= 7 {
        let mut word = [0u8; 8];
        word[..bytes.len()].copy_from_slice(bytes);
        return u64::from_le_bytes(word);
    }
    let mut value: u64 = 0;
    for &byte in bytes.iter().rev() {
        value = mersenne((u128::from(value) << 8) | u128::from(byte));
    }
    value
}

fn shingle_hash(bytes: &[u8], constants: &Constants) -> u64 {
    mersenne(
        u128::from(reduced(bytes)) * u128::from(constants.multiplier)
            + u128::from(constants.offset),
    )
}

/// The least value per bin of the padded text's 5-grams (code points, not bytes); `None` for a
/// bin that saw none. A text shorter than a shingle is one shingle.
pub fn least(normalized: &str) -> [Option<u64>; BINS] {
    let constants = &*CONSTANTS;
    let padded = format!(" {normalized} ");
    // Byte offsets of each code point, and the end: a 5-gram is a byte slice between two.
    let mut bounds: Vec<usize> = padded.char_indices().map(|(at, _)| at).collect();
    bounds.push(padded.len());
    let chars = bounds.len() - 1;
    let windows = chars.saturating_sub(SHINGLE - 1).max(1);
    let width = SHINGLE.min(chars);
    // A 5-gram that repeats gives its bin the same value again: the least is the same as
    // over the set of 5-grams the Python reference walks.
    let mut least = [None; BINS];
    for start in 0..windows {
        let bytes = &padded.as_bytes()[bounds[start]..bounds[start + width]];
        let value = shingle_hash(bytes, constants);
        let (bin, rest) = ((value % BINS as u64) as usize, value / BINS as u64);
        least[bin] = Some(least[bin].map_or(rest, |old: u64| old.min(rest)));
    }
    least
}

/// `sketch`: each bin's value in hex; an empty bin borrows from its probe list (`.try`), else
/// from the next full bin (`+step`), else `-`.
pub fn sketch(normalized: &str) -> Vec<String> {
    let constants = &*CONSTANTS;
    let least = least(normalized);
    (0..BINS)
        .map(|bin| bin_value(&least, bin, &constants.probes[bin]))
        .collect()
}

fn bin_value(least: &[Option<u64>; BINS], bin: usize, probes: &[usize; DENSIFY_TRIES]) -> String {
    if let Some(own) = least[bin] {
        return format!("{own:x}");
    }
    for (attempt, &other) in probes.iter().enumerate() {
        if let Some(borrowed) = least[other] {
            let mut text = format!("{borrowed:x}");
            let _ = write!(text, ".{}", attempt + 1);
            return text;
        }
    }
    for step in 1..BINS {
        if let Some(borrowed) = least[(bin + step) % BINS] {
            return format!("{borrowed:x}+{step}");
        }
    }
    "-".to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_text_is_one_shingle_and_fills_every_bin() {
        let sketched = sketch("");
        assert_eq!(sketched.len(), BINS);
        assert!(sketched.iter().all(|value| value != "-"));
    }

    #[test]
    fn the_same_text_gives_the_same_sketch() {
        assert_eq!(sketch("the quick brown fox"), sketch("the quick brown fox"));
        assert_ne!(sketch("the quick brown fox"), sketch("the quick brown cat"));
    }

    #[test]
    fn reduction_equals_the_whole_integer_modulo_the_prime() {
        // 20 bytes of 0xff: 2^160 - 1, and 2^61 ≡ 1, so 2^160 ≡ 2^(160 mod 61) = 2^38.
        let bytes = [0xffu8; 20];
        assert_eq!(reduced(&bytes), (1u64 << 38) - 1);
        assert_eq!(reduced(b"abcde"), u64::from_le_bytes(*b"abcde\0\0\0"));
        let eight = [0xffu8; 8]; // 2^64 - 1 ≡ 2^3 - 1
        assert_eq!(reduced(&eight), 7);
        assert_eq!(mersenne(u128::from(PRIME)), 0);
        assert_eq!(mersenne(u128::from(PRIME) * 3 + 5), 5);
    }
}

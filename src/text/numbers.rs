//! Numbers as text: virtual time ([`fmt_ms`]) and floats with a fixed number of decimals
//! ([`Fixed`]) or in their shortest form ([`Short`]). The core's traces and the page's words
//! and drawings write their numbers with these, so they sit in a leaf that imports nothing of
//! the crate: every layer can use them.

/// Virtual time as seconds with milliseconds, e.g. `18.204s`.
pub fn fmt_ms(ms: u64) -> String {
    format!("{}.{:03}s", ms / 1000, ms % 1000)
}

/// `value` with `decimals` digits after the point, exactly as `format!("{value:.decimals$}")`
/// writes it (the binary value's exact decimal expansion, rounded half to even; a minus sign
/// on any negative value, zero included), for the coordinates of the graph's SVG. Its own
/// arithmetic, not the standard library's float formatting: that would be the page's largest
/// piece of formatting code (`flt2dec`, with its tables) for what is a short integer here.
/// Values too large for it (2⁶³ and over, and what is not finite) go to the standard one.
#[derive(Debug, Clone, Copy)]
pub struct Fixed(pub f64, pub u8);

impl std::fmt::Display for Fixed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let Fixed(value, decimals) = *self;
        match fixed_digits(value, decimals) {
            Some((scaled, _)) => write_digits(f, value, scaled, decimals),
            None => std::fmt::Display::fmt(&FixedStd(value, decimals), f),
        }
    }
}

/// Writes `scaled` (|`value`| × 10^`decimals`, from [`fixed_digits`]) with `decimals` digits
/// after the point, and `value`'s sign.
fn write_digits(
    f: &mut std::fmt::Formatter<'_>,
    value: f64,
    scaled: u128,
    decimals: u8,
) -> std::fmt::Result {
    let sign = if value.is_sign_negative() { "-" } else { "" };
    let width = usize::from(decimals);
    // Under 2⁶⁴, as every number the page draws is, in 64 bits: the 128-bit division and
    // formatting then never run on the page, and the module's split leaves them out of its
    // first part (2.3 KB).
    if let Ok(scaled) = u64::try_from(scaled) {
        let unit = 10u64.pow(decimals.into());
        write!(f, "{sign}{}", scaled / unit)?;
        if decimals > 0 {
            write!(f, ".{:0width$}", scaled % unit)?;
        }
        return Ok(());
    }
    let unit = 10u128.pow(decimals.into());
    write!(f, "{sign}{}", scaled / unit)?;
    if decimals > 0 {
        write!(f, ".{:0width$}", scaled % unit)?;
    }
    Ok(())
}

/// `value` as `format!("{value}")` writes it (the shortest decimal that reads back as the
/// value), for values under a million with at most four decimals, exactly (a speed, a
/// radius): the doubles nearest to one another there lie much closer than 10⁻⁴, so such a
/// value is its own shortest form. Any other value goes to the standard formatting.
#[derive(Debug, Clone, Copy)]
pub struct Short(pub f64);

impl std::fmt::Display for Short {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let value = self.0;
        if value.abs() < 1e6 {
            for decimals in 0..=4 {
                if let Some((scaled, true)) = fixed_digits(value, decimals) {
                    return write_digits(f, value, scaled, decimals);
                }
            }
        }
        ShortStd(value).fmt(f)
    }
}

/// The standard library's shortest form, for what [`Short`] leaves to it.
struct ShortStd(f64);

impl std::fmt::Display for ShortStd {
    #[inline(never)]
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// The standard library's formatting, for what [`Fixed`] leaves to it.
struct FixedStd(f64, u8);

impl std::fmt::Display for FixedStd {
    #[inline(never)]
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:.*}", usize::from(self.1), self.0)
    }
}

/// |`value`| × 10^`decimals`, rounded half to even, from the value's exact binary expansion,
/// and whether that was exact (nothing rounded off); `None` when the value is not finite, is
/// 2⁶³ or more, or `decimals` is over 4.
fn fixed_digits(value: f64, decimals: u8) -> Option<(u128, bool)> {
    if !value.is_finite() || value.abs() >= (1u64 << 63) as f64 || decimals > 4 {
        return None;
    }
    let bits = value.to_bits();
    let biased = ((bits >> 52) & 0x7ff) as i32;
    let fraction = u128::from(bits & ((1u64 << 52) - 1));
    // value = mantissa × 2^exponent, exactly.
    let (mantissa, exponent) = if biased == 0 {
        (fraction, -1074)
    } else {
        (fraction | (1 << 52), biased - 1075)
    };
    // Below 2⁶³ × 10⁴ < 2¹²⁷: no overflow.
    let scaled = mantissa * 10u128.pow(decimals.into());
    if exponent >= 0 {
        return Some((scaled << exponent, true));
    }
    let shift = exponent.unsigned_abs();
    if shift > 120 {
        // Under 2⁻⁶⁰ after scaling: less than half of the last digit.
        return Some((0, scaled == 0));
    }
    let whole = scaled >> shift;
    let rest = scaled & ((1u128 << shift) - 1);
    let half = 1u128 << (shift - 1);
    let up = rest > half || (rest == half && whole % 2 == 1);
    Some((whole + u128::from(up), rest == 0))
}

#[cfg(test)]
#[path = "numbers_test.rs"]
mod tests;

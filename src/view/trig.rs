//! Sine and cosine for the graph's layout, written out here so that the page's first view does
//! not carry the WebAssembly build's copy of the C maths library (its argument reduction alone
//! is 2 KB), and so that the native build (the layout's tests) and the page compute the very
//! same numbers.
//!
//! This is FreeBSD's `msun` (fdlibm) as musl has it and as Rust's WebAssembly target links it
//! (the `libm` port): `__sin`, `__cos` (`k_sin.c`, `k_cos.c`), `sin`, `cos` and `__rem_pio2`'s
//! reduction for `|x| < 2^20 · π/2`. The reduction of larger arguments (never drawn: the layout's angles
//! are within a turn) is left to the standard library.

const S1: f64 = f64::from_bits(0xBFC5_5555_5555_5549); // -1.66666666666666324348e-1
const S2: f64 = f64::from_bits(0x3F81_1111_1110_F8A6); // 8.33333333332248946124e-3
const S3: f64 = f64::from_bits(0xBF2A_01A0_19C1_61D5); // -1.98412698298579493134e-4
const S4: f64 = f64::from_bits(0x3EC7_1DE3_57B1_FE7D); // 2.75573137070700676789e-6
const S5: f64 = f64::from_bits(0xBE5A_E5E6_8A2B_9CEB); // -2.50507602534068634195e-8
const S6: f64 = f64::from_bits(0x3DE5_D93A_5ACF_D57C); // 1.58969099521155010221e-10

const C1: f64 = f64::from_bits(0x3FA5_5555_5555_554C); // 4.16666666666666019037e-2
const C2: f64 = f64::from_bits(0xBF56_C16C_16C1_5177); // -1.38888888888741095749e-3
const C3: f64 = f64::from_bits(0x3EFA_01A0_19CB_1590); // 2.48015872894767294178e-5
const C4: f64 = f64::from_bits(0xBE92_7E4F_809C_52AD); // -2.75573143513906633035e-7
const C5: f64 = f64::from_bits(0x3E21_EE9E_BDB4_B1C4); // 2.08757232129817482790e-9
const C6: f64 = f64::from_bits(0xBDA8_FAE9_BE88_38D4); // -1.13596475577881948265e-11

/// `1.5 / f64::EPSILON`: adding and subtracting it rounds to an integer.
const TOINT: f64 = 1.5 / f64::EPSILON;
const INVPIO2: f64 = f64::from_bits(0x3FE4_5F30_6DC9_C883); // 6.36619772367581382433e-1
/// π/2 in three parts, each the next 33 bits, and the rest after each.
const PIO2_1: f64 = f64::from_bits(0x3FF9_21FB_5440_0000); // 1.57079632673412561417
const PIO2_1T: f64 = f64::from_bits(0x3DD0_B461_1A62_6331); // 6.07710050650619224932e-11
const PIO2_2: f64 = f64::from_bits(0x3DD0_B461_1A60_0000); // 6.07710050630396597660e-11
const PIO2_2T: f64 = f64::from_bits(0x3BA3_198A_2E03_7073); // 2.02226624879595063154e-21
const PIO2_3: f64 = f64::from_bits(0x3BA3_198A_2E00_0000); // 2.02226624871116645580e-21
const PIO2_3T: f64 = f64::from_bits(0x397B_839A_2520_49C1); // 8.47842766036889956997e-32

/// `k_sin.c`: sin(x + y) for |x| ≤ π/4, `y` the tail of `x` (`with_tail`: whether there is one).
fn k_sin(x: f64, y: f64, with_tail: bool) -> f64 {
    let z = x * x;
    let w = z * z;
    let r = S2 + z * (S3 + z * S4) + z * w * (S5 + z * S6);
    let v = z * x;
    if with_tail {
        x - ((z * (0.5 * y - v * r) - y) - v * S1)
    } else {
        x + v * (S1 + z * r)
    }
}

/// `k_cos.c`: cos(x + y) for |x| ≤ π/4.
fn k_cos(x: f64, y: f64) -> f64 {
    let z = x * x;
    let w = z * z;
    let r = z * (C1 + z * (C2 + z * C3)) + w * w * (C4 + z * (C5 + z * C6));
    let hz = 0.5 * z;
    let w = 1.0 - hz;
    w + (((1.0 - w) - hz) + (z * r - x * y))
}

/// The high word of `x`'s bits without the sign.
fn high(x: f64) -> u32 {
    ((x.to_bits() >> 32) as u32) & 0x7fff_ffff
}

/// `__rem_pio2`: `x` as `n · π/2 + (y0 + y1)`, `|y0 + y1| ≤ π/4`; `None` for `|x| ≥ 2^20 · π/2`.
fn rem_pio2(x: f64) -> Option<(i32, f64, f64)> {
    let sign = x.is_sign_negative();
    let ix = high(x);
    // Near a multiple of π/2 up to 9π/4, one subtraction of it does (the cases where that
    // cancels, |x| ≈ π/2, π, 3π/2, 2π, go to the general reduction).
    let near = |k: f64, n: i32| {
        if sign {
            let z = x + k * PIO2_1;
            let y0 = z + k * PIO2_1T;
            (-n, y0, (z - y0) + k * PIO2_1T)
        } else {
            let z = x - k * PIO2_1;
            let y0 = z - k * PIO2_1T;
            (n, y0, (z - y0) - k * PIO2_1T)
        }
    };
    if ix <= 0x400f_6a7a {
        if ix & 0xfffff != 0x921fb {
            return Some(if ix <= 0x4002_d97c {
                near(1.0, 1)
            } else {
                near(2.0, 2)
            });
        }
    } else if ix <= 0x401c_463b {
        if ix <= 0x4015_fdbc {
            if ix != 0x4012_d97c {
                return Some(near(3.0, 3));
            }
        } else if ix != 0x4019_21fb {
            return Some(near(4.0, 4));
        }
    } else if ix >= 0x4139_21fb {
        return None;
    }
    // The general reduction: rint(x / (π/2)), then x minus that many π/2 in up to three rounds.
    // (musl then moves `n` by one when `r - w` lies beyond ±π/4, which only directed
    // rounding can cause; the maths library the WebAssembly build links does not, and it is
    // that library's numbers this module gives.)
    let f = x * INVPIO2 + TOINT - TOINT;
    let n = f as i32;
    let mut r = x - f * PIO2_1;
    let mut w = f * PIO2_1T;
    let mut y0 = r - w;
    let exponent = |v: f64| ((v.to_bits() >> 52) & 0x7ff) as i32;
    let ex = (ix >> 20) as i32;
    // A further round: the next 33 bits of π/2, and what is left after them.
    let round = |r: f64, part: f64, tail: f64| {
        let w = f * part;
        let next = r - w;
        let w = f * tail - ((r - next) - w);
        (next, w, next - w)
    };
    if ex - exponent(y0) > 16 {
        (r, w, y0) = round(r, PIO2_2, PIO2_2T);
        if ex - exponent(y0) > 49 {
            (r, w, y0) = round(r, PIO2_3, PIO2_3T);
        }
    }
    Some((n, y0, (r - y0) - w))
}

/// The sine of `x` (radians), as the C library's `sin` computes it.
pub fn sin(x: f64) -> f64 {
    let ix = high(x);
    if ix <= 0x3fe9_21fb {
        return if ix < 0x3e50_0000 {
            x
        } else {
            k_sin(x, 0.0, false)
        };
    }
    if ix >= 0x7ff0_0000 {
        return nan(x);
    }
    match rem_pio2(x) {
        Some((n, y0, y1)) => match n & 3 {
            0 => k_sin(y0, y1, true),
            1 => k_cos(y0, y1),
            2 => -k_sin(y0, y1, true),
            _ => -k_cos(y0, y1),
        },
        // The standard library's, for arguments never drawn (see the module doc).
        #[allow(clippy::disallowed_methods)]
        None => large(x, f64::sin),
    }
}

/// The cosine of `x` (radians), as the C library's `cos` computes it.
pub fn cos(x: f64) -> f64 {
    let ix = high(x);
    if ix <= 0x3fe9_21fb {
        return if ix < 0x3e46_a09e { 1.0 } else { k_cos(x, 0.0) };
    }
    if ix >= 0x7ff0_0000 {
        return nan(x);
    }
    match rem_pio2(x) {
        Some((n, y0, y1)) => match n & 3 {
            0 => k_cos(y0, y1),
            1 => -k_sin(y0, y1, true),
            2 => -k_cos(y0, y1),
            _ => k_sin(y0, y1, true),
        },
        // The standard library's, for arguments never drawn (see the module doc).
        #[allow(clippy::disallowed_methods)]
        None => large(x, f64::cos),
    }
}

/// The answer to an infinity or a NaN: `x - x`, a NaN, as fdlibm writes it.
#[allow(clippy::eq_op)]
fn nan(x: f64) -> f64 {
    x - x
}

/// An argument beyond the reduction above, left to the standard library.
#[inline(never)]
#[cold]
fn large(x: f64, f: fn(f64) -> f64) -> f64 {
    f(x)
}

#[cfg(test)]
#[path = "trig_test.rs"]
mod tests;

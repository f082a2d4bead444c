use super::{cos, sin};
use std::f64::consts::PI;

/// How many representable doubles lie between `a` and `b`.
fn ulps(a: f64, b: f64) -> u64 {
    let key = |v: f64| {
        let bits = v.to_bits() as i64;
        if bits < 0 {
            i64::MIN - bits
        } else {
            bits
        }
    };
    key(a).abs_diff(key(b))
}

/// The angles the layout takes (a ring of up to 9 brokers, consumers around the group, the
/// arcs' ends) and a dense sweep of four turns either way, with the cases the reduction
/// treats apart: near each multiple of π/2 up to 2π, and the tiny arguments.
fn angles() -> Vec<f64> {
    let mut xs = Vec::new();
    for n in 1..=12 {
        for k in 0..n {
            xs.push(-PI / 2.0 + 2.0 * PI * k as f64 / n as f64);
            xs.push(PI / n as f64);
        }
    }
    for k in -8..=8 {
        let m = k as f64 * PI / 2.0;
        for d in [0.0, 1e-12, -1e-12, 1e-6, -1e-6] {
            xs.push(m + d);
        }
    }
    xs.extend([
        0.0,
        -0.0,
        1e-300,
        -1e-9,
        2f64.powi(-27),
        std::f64::consts::FRAC_PI_4,
        f64::from_bits(std::f64::consts::FRAC_PI_4.to_bits() + 1),
    ]);
    let steps = 400_000;
    for i in 0..=steps {
        xs.push(-8.0 * PI + 16.0 * PI * i as f64 / steps as f64);
    }
    xs
}

#[test]
fn sine_and_cosine_are_within_one_ulp_of_the_standard_librarys() {
    // Natively the standard library calls the system's maths library, which rounds
    // correctly or nearly so; fdlibm is within 1 ulp. (In wasm the two are the same code:
    // tests/wasm_determinism.rs checks them bit for bit.)
    let mut same = 0;
    let xs = angles();
    for &x in &xs {
        let (s, c) = (sin(x), cos(x));
        assert!(
            ulps(s, x.sin()) <= 1,
            "sin({x:e}) = {s:e}, std {:e}",
            x.sin()
        );
        assert!(
            ulps(c, x.cos()) <= 1,
            "cos({x:e}) = {c:e}, std {:e}",
            x.cos()
        );
        same += usize::from(s == x.sin()) + usize::from(c == x.cos());
    }
    assert!(
        same * 100 > xs.len() * 2 * 95,
        "{same} of {} equal",
        2 * xs.len()
    );
}

#[test]
fn the_exact_cases_are_exact() {
    assert_eq!(sin(0.0), 0.0);
    assert!(sin(-0.0).is_sign_negative());
    assert_eq!(cos(0.0), 1.0);
    assert_eq!(sin(1e-300), 1e-300);
    assert!(sin(f64::NAN).is_nan() && cos(f64::INFINITY).is_nan());
    // Beyond the reduction written here, the standard library answers.
    assert_eq!(sin(1e10), 1e10f64.sin());
    assert_eq!(cos(-1e10), (-1e10f64).cos());
}

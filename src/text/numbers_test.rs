//! The number formatters write what the standard library writes.

/// `Fixed` writes what `format!("{:.N}")` writes, digit for digit: ties (0.25, 2.5), values
/// just either side of one, negative values and negative zero, subnormals, large values and
/// what is not finite, and a million values drawn across the graph's range of coordinates.
#[test]
fn fixed_writes_what_the_standard_formatting_writes() {
    use super::Fixed;
    let check = |v: f64| {
        for d in 0..=4u8 {
            assert_eq!(
                Fixed(v, d).to_string(),
                format!("{:.*}", usize::from(d), v),
                "{v:e} with {d} decimals"
            );
        }
    };
    let edges = [
        0.0,
        -0.0,
        0.25,
        0.75,
        0.125,
        0.375,
        2.5,
        3.5,
        -0.25,
        -0.04,
        0.05,
        0.15,
        1.45,
        0.35,
        0.45,
        1e-300,
        -1e-300,
        5e-324,
        2.2250738585072014e-308,
        0.5,
        1.5,
        -0.5,
        999.95,
        9.995,
        123456.789,
        4503599627370495.5,
        9007199254740993.0,
        1e18,
        -1e18,
        9.223372036854775e18,
        9.3e18,
        1e300,
        f64::MAX,
        f64::MIN,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
    ];
    for v in edges {
        check(v);
        check(f64::from_bits(v.to_bits().wrapping_add(1)));
        check(f64::from_bits(v.to_bits().wrapping_sub(1)));
    }
    let mut rng = crate::sim::Rng::new(7);
    for i in 0..1_000_000u32 {
        let v = match i % 4 {
            // Coordinates: a few thousand pixels either way, any fraction.
            0 => (rng.next_u64() % 8_000_000) as f64 / 1000.0 - 4000.0,
            // Ties and their neighbours at every digit count.
            1 => (rng.next_u64() % 200_000) as f64 / 16.0 - 6000.0,
            // Any bit pattern.
            2 => f64::from_bits(rng.next_u64()),
            _ => (rng.next_u64() as f64) / (rng.next_u64() | 1) as f64,
        };
        let d = (i % 5) as u8;
        assert_eq!(
            Fixed(v, d).to_string(),
            format!("{:.*}", usize::from(d), v),
            "{v:e} with {d} decimals"
        );
    }
}

/// `Short` writes what `format!("{}")` writes: the speeds, radii, every value with up to four
/// decimals drawn at random, and values it leaves to the standard formatting.
#[test]
fn short_writes_what_the_standard_formatting_writes() {
    use super::Short;
    let check = |v: f64| assert_eq!(Short(v).to_string(), format!("{v}"), "{v:e}");
    for v in [
        0.25,
        0.5,
        1.0,
        2.0,
        5.0,
        10.0,
        25.0,
        50.0,
        45.0,
        0.0,
        -0.0,
        -2.5,
        0.1,
        0.3,
        1e-7,
        4503599627370495.5,
        9007199254740991.0,
        9007199254740992.0,
        1e21,
        1e300,
        f64::NAN,
        f64::INFINITY,
        f64::NEG_INFINITY,
        5e-324,
        0.0625,
        0.0001,
        0.00005,
    ] {
        check(v);
        check(f64::from_bits(v.to_bits().wrapping_add(1)));
    }
    let mut rng = crate::sim::Rng::new(11);
    for i in 0..1_000_000u32 {
        let v = match i % 3 {
            // Sixteenths under a million either way: exact, its fast path.
            0 => (rng.next_u64() % 32_000_000) as f64 / 16.0 - 1_000_000.0,
            // Four decimals, most of them not exact in binary.
            1 => (rng.next_u64() % 20_000_000_000) as f64 / 10_000.0 - 1_000_000.0,
            _ => f64::from_bits(rng.next_u64()),
        };
        check(v);
    }
}

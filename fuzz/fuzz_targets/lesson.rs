//! The fuzzer of one reader of untrusted input; what it feeds is in tests/fuzz_inputs (shared
//! with the regression test, tests/fuzz_regressions.rs).
#![no_main]

#[path = "../../tests/fuzz_inputs/mod.rs"]
#[allow(dead_code)] // each target uses one of the three
mod fuzz_inputs;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let _ = fuzz_inputs::lesson(data);
});

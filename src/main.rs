//! The playground's browser entry point (built by Trunk for wasm32).

#[cfg(target_arch = "wasm32")]
fn main() {
    kafka_election_playground::ui::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!(
        "This is the browser playground's entry point; build it with Trunk (see README.md).\n\
         For the command line, run `kafka-election`."
    );
    std::process::exit(2);
}

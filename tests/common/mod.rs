//! What the property suites share: the end of a random schedule, when the faults stop.

use kafka_election_playground::{Command, Endpoint, World};

/// The faults stop at `t`: every link heals and every fetcher resumes; then, three times
/// 200 s apart (so that paused brokers wake and old sessions expire), every broker that is down
/// starts; then `settle_ms` more pass. Commands that make no sense (healing a link that is not
/// cut, starting a running broker) are refused and change nothing. Returns the time reached.
pub fn stop_faults(w: &mut World, mut t: u64, settle_ms: u64) -> u64 {
    let ids = w.broker_ids();
    for a in &ids {
        let _ = w.apply(Command::Heal(Endpoint::Broker(*a), Endpoint::Zk));
        let _ = w.apply(Command::ResumeFetcher {
            broker: *a,
            topic: None,
            partition: None,
        });
        for b in &ids {
            let _ = w.apply(Command::Heal(Endpoint::Broker(*a), Endpoint::Broker(*b)));
        }
    }
    for _round in 0..3 {
        t += 200_000;
        w.advance_to(t);
        for b in &ids {
            let _ = w.apply(Command::Start(*b));
        }
    }
    t += settle_ms;
    w.advance_to(t);
    t
}

//! What the controller's ZooKeeper requests are for: those of the `/controller` race, which
//! every broker runs, and those of the acting controller.
//!
//! It imports only ZooKeeper's error codes, so that the ZooKeeper client's request table can
//! name these purposes without an import circle.

use crate::sim::message::ZkError;

/// What one of the `/controller` race's ZooKeeper requests was for.
#[derive(Debug, Clone, PartialEq, Eq)]
#[allow(missing_docs)] // the variants are documented; their fields say what they hold
pub enum ElectionPending {
    /// `elect()`: does `/controller` exist? (sets the watch)
    ElectCheck,
    /// `elect()`: read `/controller_epoch`.
    ReadEpoch,
    /// `elect()`: create `/controller_epoch` with "0" in a fresh cluster.
    CreateEpoch,
    /// `elect()`: the atomic create of `/controller` + increment of `/controller_epoch`.
    ElectMulti { epoch: u64 },
    /// Before 2.1, `elect()`'s first step: the checked ephemeral create of `/controller`.
    CreateController,
    /// That create met NODEEXISTS: whose session owns `/controller`?
    CreateControllerCheck,
    /// Before 2.1, `onControllerFailover`: `readControllerEpochFromZooKeeper`.
    FailoverReadEpoch,
    /// Before 2.1, `incrementControllerEpoch`: setData of `/controller_epoch` to `epoch` on
    /// the version read.
    IncrementEpoch { epoch: u64 },
    /// `incrementControllerEpoch` found no `/controller_epoch`: create it with 1.
    CreateInitialEpoch,
    /// `triggerControllerMove` (2.0.1) / `resign` (0.10.2.2): delete `/controller`.
    DeleteController,
    /// After losing the race: who won?
    AfterRaceLost { error: ZkError },
    /// The multi-op failed with NODEEXISTS or BADVERSION: read `/controller` and
    /// `/controller_epoch` to see whether it was this broker's own, resent after a lost reply.
    CheckElection { epoch: u64, error: ZkError },
    /// `/controller` was created or changed: re-read it (and re-arm the watch).
    ControllerChange,
}

/// What one of the acting controller's ZooKeeper requests was for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ControllerPending {
    /// Controller failover: read the live brokers and their epochs (`onControllerFailover`).
    LoadBrokers {
        /// The controller epoch it was made in.
        epoch: u64,
    },
    /// A step of the controller's current event (see [`super::Task`]).
    Step {
        /// The controller epoch it was made in.
        epoch: u64,
        /// The step's number.
        step: u64,
    },
}

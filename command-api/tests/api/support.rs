//! The in-process system and the demo's helpers, shared with query-api's tests.

pub use navalha_harness::demo::*;
pub use navalha_harness::in_process::*;

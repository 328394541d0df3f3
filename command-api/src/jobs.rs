//! Work each command-api instance does on its own, on a timer: the reconciliation with the
//! payment provider and the reminders.

use std::future::Future;

/// Runs `job` every `seconds` (0: never), a late tick delayed rather than bunched.
pub fn spawn_every<F, Fut>(seconds: u64, job: F)
where
    F: Fn() -> Fut + Send + 'static,
    Fut: Future<Output = ()> + Send,
{
    if seconds == 0 {
        return;
    }
    tokio::spawn(async move {
        let mut ticker = tokio::time::interval(std::time::Duration::from_secs(seconds));
        ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            ticker.tick().await;
            job().await;
        }
    });
}

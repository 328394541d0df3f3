//! What a booking needs before it reads its streams, without a round trip of its own
//! (issue 15): the membership's professional and unit, and the new appointment's id; and
//! the turn an online booking waits for on its unit's day (issue 39).

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;

use navalha_platform::generations::Generations;
use navalha_platform::ApiError;
use sqlx::PgPool;
use tokio::sync::Mutex;

use crate::read_models::{self, Owner};

/// Who a membership (IdCompanyProfessional) belongs to, kept once read.
///
/// A membership never changes hands: its id comes from a sequence when a professional
/// joins a unit, and leaving the unit drops it (joining again takes a new id). So a kept
/// answer is never stale. Whether the membership still holds is checked against the
/// professional's stream on every booking, as before; only known memberships are kept, so
/// guessing ids does not grow the map. Kept per business and membership: a booking in one
/// business never finds another's membership (ADR 0029). Bounded like the other caches
/// (`platform::generations`): two generations of [`MEMBERSHIPS`].
#[derive(Clone)]
pub struct MembershipOwners {
    known: Arc<std::sync::Mutex<Generations<(i64, i64), Owner>>>,
}

/// Memberships per generation: every unit's staff of a few thousand shops.
pub const MEMBERSHIPS: usize = 20_000;

impl Default for MembershipOwners {
    fn default() -> Self {
        MembershipOwners { known: Arc::new(std::sync::Mutex::new(Generations::counted(MEMBERSHIPS))) }
    }
}

impl MembershipOwners {
    /// The membership's owner, `None` for one the read model does not (yet) know.
    pub async fn of(
        &self,
        pool: &PgPool,
        business_id: i64,
        membership_id: i64,
    ) -> Result<Option<Owner>, ApiError> {
        if let Some(owner) = self.lock().get(&(business_id, membership_id)) {
            return Ok(Some(*owner));
        }
        let owner = read_models::membership_owner(pool, business_id, membership_id).await?;
        if let Some(owner) = owner {
            self.lock().insert((business_id, membership_id), owner);
        }
        Ok(owner)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Generations<(i64, i64), Owner>> {
        // Each change is one call that leaves the maps whole, even if it panicked.
        self.known.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// New appointment ids, taken from `appointment_id_seq` a block at a time.
///
/// A block costs one round trip for [`ID_BLOCK`] bookings instead of one each. The
/// ids a process had not handed out when it stops are never used, as an id taken by a
/// refused booking never was: ids identify, they do not count.
#[derive(Clone, Default)]
pub struct AppointmentIds {
    block: Arc<Mutex<VecDeque<i64>>>,
}

/// Ids per block: enough to make the refill rare under load, few enough that a restart
/// skips little.
pub const ID_BLOCK: i64 = 32;

impl AppointmentIds {
    /// The next id; one in [`ID_BLOCK`] calls refills the block.
    pub async fn next(&self, pool: &PgPool) -> Result<i64, ApiError> {
        let mut block = self.block.lock().await;
        if block.is_empty() {
            let ids: Vec<i64> =
                sqlx::query_scalar("select nextval('appointment_id_seq') from generate_series(1, $1)")
                    .bind(ID_BLOCK)
                    .fetch_all(pool)
                    .await?;
            block.extend(ids);
        }
        block.pop_front().ok_or_else(|| ApiError::Internal(anyhow::anyhow!("appointment_id_seq gave no ids")))
    }
}

/// Online bookings and moves of one unit's day, one at a time in this process.
///
/// The newcomer rules (online.rs) count a unit's day under a database lock, held by a
/// connection until the booking's events commit on another. Requests queued on that lock
/// would each hold a connection, and enough of them (an attack on one day) would leave the
/// one holding it none to append with. Queued here first, they hold no connection: at most
/// one per process waits on the database lock.
#[derive(Clone, Default)]
pub struct UnitDayTurns {
    turns: Arc<std::sync::Mutex<HashMap<UnitDay, Arc<Mutex<()>>>>>,
}

/// A unit and one of its days.
type UnitDay = (i64, chrono::NaiveDate);

/// A turn on a unit's day, until dropped.
pub struct Turn {
    _held: tokio::sync::OwnedMutexGuard<()>,
}

impl UnitDayTurns {
    /// Waits for the unit's day to be free in this process.
    pub async fn wait(&self, company_id: i64, date: chrono::NaiveDate) -> Turn {
        let line = {
            let mut turns = self.turns.lock().expect("unit day turns lock");
            // Days nobody holds or waits for are forgotten.
            turns.retain(|_, line| Arc::strong_count(line) > 1);
            turns.entry((company_id, date)).or_default().clone()
        };
        Turn { _held: line.lock_owned().await }
    }
}

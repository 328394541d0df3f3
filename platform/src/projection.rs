//! What the projector announces when it commits a batch, and query-api listens for: the
//! model, its new checkpoint, and the businesses whose rows the batch changed. Waiting
//! reads use the checkpoint (read-your-writes); open agendas use the businesses (live
//! changes, ADR 0011).

use std::collections::BTreeSet;
use std::fmt;
use std::str::FromStr;

use crate::position::Position;

/// The PostgreSQL channel the projector notifies at each batch commit.
pub const CHANNEL: &str = "navalha_projection";

/// Past this many businesses in one batch the notice says "every business": a
/// notification's payload is limited to 8000 bytes.
pub const MAX_NAMED_BUSINESSES: usize = 200;

/// Whose rows a batch changed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Changed {
    /// No rows: the checkpoint only moved past other models' events.
    Nothing,
    /// These businesses' rows.
    Businesses(BTreeSet<i64>),
    /// Too many businesses to name: every business should look again.
    Every,
}

impl Changed {
    /// What a batch of events of these businesses changed.
    pub fn of(businesses: impl IntoIterator<Item = i64>) -> Self {
        let businesses: BTreeSet<i64> = businesses.into_iter().collect();
        match businesses.len() {
            0 => Changed::Nothing,
            n if n > MAX_NAMED_BUSINESSES => Changed::Every,
            _ => Changed::Businesses(businesses),
        }
    }

    /// Whether the business's rows may have changed.
    pub fn touches(&self, business_id: i64) -> bool {
        match self {
            Changed::Nothing => false,
            Changed::Businesses(businesses) => businesses.contains(&business_id),
            Changed::Every => true,
        }
    }
}

/// One batch commit: `agenda 812.9051 1,4` (model, checkpoint, businesses; `*` for every
/// business, nothing when no rows changed).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BatchCommitted {
    /// The read model's name (`agenda`, `client`, ...).
    pub model: String,
    /// The model's checkpoint after the batch.
    pub checkpoint: Position,
    /// Whose rows changed.
    pub changed: Changed,
}

/// The model a [`BatchCommitted::look_again`] notice names.
pub const EVERY_MODEL: &str = "*";

impl BatchCommitted {
    /// Not a batch: what a listener tells its readers when notices may have been lost (its
    /// connection dropped), so that every business looks at every model again.
    pub fn look_again() -> Self {
        BatchCommitted { model: EVERY_MODEL.to_owned(), checkpoint: Position::START, changed: Changed::Every }
    }
}

impl fmt::Display for BatchCommitted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.model, self.checkpoint)?;
        match &self.changed {
            Changed::Nothing => Ok(()),
            Changed::Every => write!(f, " *"),
            Changed::Businesses(businesses) => {
                let ids: Vec<String> = businesses.iter().map(i64::to_string).collect();
                write!(f, " {}", ids.join(","))
            }
        }
    }
}

/// A payload that is not a [`BatchCommitted`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("not a projection notice")]
pub struct InvalidNotice;

impl FromStr for BatchCommitted {
    type Err = InvalidNotice;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let mut parts = text.split(' ');
        let model = parts.next().filter(|model| !model.is_empty()).ok_or(InvalidNotice)?;
        let checkpoint = parts.next().ok_or(InvalidNotice)?.parse().map_err(|_| InvalidNotice)?;
        let changed = match parts.next() {
            None => Changed::Nothing,
            Some("*") => Changed::Every,
            Some(ids) => Changed::Businesses(
                ids.split(',').map(|id| id.parse().map_err(|_| InvalidNotice)).collect::<Result<_, _>>()?,
            ),
        };
        if parts.next().is_some() {
            return Err(InvalidNotice);
        }
        Ok(BatchCommitted { model: model.to_owned(), checkpoint, changed })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn notice(changed: Changed) -> BatchCommitted {
        BatchCommitted {
            model: "agenda".into(),
            checkpoint: Position { tx_id: 812, global_position: 9051 },
            changed,
        }
    }

    #[test]
    fn notices_round_trip() {
        for changed in [Changed::Nothing, Changed::Every, Changed::of([4, 1, 4])] {
            let sent = notice(changed);
            assert_eq!(sent.to_string().parse(), Ok(sent));
        }
        assert_eq!(notice(Changed::of([4, 1])).to_string(), "agenda 812.9051 1,4");
        assert_eq!("agenda 812.9051".parse::<BatchCommitted>(), Ok(notice(Changed::Nothing)));
        assert_eq!("agenda".parse::<BatchCommitted>(), Err(InvalidNotice));
        assert_eq!("agenda 812.9051 1,x".parse::<BatchCommitted>(), Err(InvalidNotice));
        assert_eq!("agenda 812.9051 1 2".parse::<BatchCommitted>(), Err(InvalidNotice));
    }

    #[test]
    fn a_notice_touches_only_the_businesses_it_names() {
        let changed = Changed::of([1, 4]);
        assert!(changed.touches(1) && changed.touches(4) && !changed.touches(2));
        assert!(!Changed::Nothing.touches(1));
        let many = Changed::of(1..=(MAX_NAMED_BUSINESSES as i64 + 1));
        assert_eq!(many, Changed::Every);
        assert!(many.touches(999_999));
        assert!(notice(many).to_string().len() < 100);
        let most = notice(Changed::of((1..=MAX_NAMED_BUSINESSES as i64).map(|id| id + i64::MAX / 2)));
        assert!(most.to_string().len() < 8000, "a notification's payload is at most 8000 bytes");
    }
}

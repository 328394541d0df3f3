//! Positions in the event log, in commit order.

use std::fmt;
use std::str::FromStr;

use axum::http::HeaderName;

/// Header on command answers (the position of the command's last event) and on queries
/// (the position the answer must reflect).
pub const POSITION_HEADER: HeaderName = HeaderName::from_static("x-navalha-position");
/// Header on query answers that say whether the read model had reached the asked position
/// (`reached`) or the wait gave up (`timeout`), and how long it waited.
pub const CONSISTENCY_HEADER: HeaderName = HeaderName::from_static("x-navalha-consistency");

/// A point in the event log's commit order: the transaction id, then the position the
/// event was allocated. Ordered lexicographically, exactly as the projector reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Position {
    /// The appending transaction's id (`xid8`).
    pub tx_id: i64,
    /// The event's `global_position`.
    pub global_position: i64,
}

impl Position {
    /// Before every event.
    pub const START: Position = Position { tx_id: 0, global_position: 0 };
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.tx_id, self.global_position)
    }
}

/// A position header that is not `<tx_id>.<global_position>`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("posição inválida no cabeçalho X-Navalha-Position")]
pub struct InvalidPosition;

impl FromStr for Position {
    type Err = InvalidPosition;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let (tx, pos) = text.trim().split_once('.').ok_or(InvalidPosition)?;
        Ok(Position {
            tx_id: tx.parse().map_err(|_| InvalidPosition)?,
            global_position: pos.parse().map_err(|_| InvalidPosition)?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_round_trip_and_order_by_transaction_first() {
        let a = Position { tx_id: 10, global_position: 7 };
        let b = Position { tx_id: 11, global_position: 3 };
        assert!(a < b, "a later transaction comes later even with a smaller position");
        assert_eq!("10.7".parse(), Ok(a));
        assert_eq!(a.to_string(), "10.7");
        assert_eq!("10".parse::<Position>(), Err(InvalidPosition));
        assert_eq!("x.1".parse::<Position>(), Err(InvalidPosition));
    }
}

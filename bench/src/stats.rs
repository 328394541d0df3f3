//! Latency samples and their percentiles.

use std::time::Duration;

use serde_json::{json, Value};

/// Latencies in microseconds, sorted on demand. A few hundred thousand samples at most, so
/// keeping them all is cheaper than a histogram dependency and exact.
#[derive(Debug, Default, Clone)]
pub struct Samples {
    micros: Vec<u64>,
    sorted: bool,
}

impl Samples {
    /// Records one latency.
    pub fn record(&mut self, latency: Duration) {
        self.micros.push(u64::try_from(latency.as_micros()).unwrap_or(u64::MAX));
        self.sorted = false;
    }

    /// Records one latency given in microseconds.
    pub fn record_micros(&mut self, micros: u64) {
        self.micros.push(micros);
        self.sorted = false;
    }

    /// Adds another set of samples.
    pub fn merge(&mut self, other: Samples) {
        self.micros.extend(other.micros);
        self.sorted = false;
    }

    /// How many samples.
    pub fn len(&self) -> usize {
        self.micros.len()
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.micros.is_empty()
    }

    /// The `p`-th percentile (0-100) in milliseconds, nearest-rank: the smallest sample
    /// such that at least `p` % of the samples are at most it. `None` without samples.
    pub fn percentile_ms(&mut self, p: f64) -> Option<f64> {
        if self.micros.is_empty() {
            return None;
        }
        if !self.sorted {
            self.micros.sort_unstable();
            self.sorted = true;
        }
        let n = self.micros.len();
        let rank = ((p / 100.0) * n as f64).ceil() as usize;
        let index = rank.clamp(1, n) - 1;
        Some(self.micros[index] as f64 / 1000.0)
    }

    /// The mean in milliseconds.
    pub fn mean_ms(&self) -> Option<f64> {
        (!self.micros.is_empty())
            .then(|| self.micros.iter().sum::<u64>() as f64 / self.micros.len() as f64 / 1000.0)
    }

    /// p50, p95, p99, max and the count, as JSON (milliseconds).
    pub fn summary(&mut self) -> Value {
        if self.is_empty() {
            return json!({ "count": 0 });
        }
        json!({
            "count": self.len(),
            "p50_ms": self.percentile_ms(50.0),
            "p95_ms": self.percentile_ms(95.0),
            "p99_ms": self.percentile_ms(99.0),
            "max_ms": self.percentile_ms(100.0),
            "mean_ms": self.mean_ms(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_rank_percentiles() {
        let mut samples = Samples::default();
        assert_eq!(samples.percentile_ms(50.0), None);
        // 1..=100 ms, shuffled.
        for i in (1..=100_u64).rev() {
            samples.record(Duration::from_millis((i * 37) % 100 + 1));
        }
        assert_eq!(samples.percentile_ms(50.0), Some(50.0));
        assert_eq!(samples.percentile_ms(95.0), Some(95.0));
        assert_eq!(samples.percentile_ms(99.0), Some(99.0));
        assert_eq!(samples.percentile_ms(100.0), Some(100.0));
        assert_eq!(samples.percentile_ms(0.0), Some(1.0));
        assert_eq!(samples.mean_ms(), Some(50.5));
    }

    #[test]
    fn one_sample_and_merging() {
        let mut one = Samples::default();
        one.record_micros(1500);
        assert_eq!(one.percentile_ms(99.0), Some(1.5));
        let mut other = Samples::default();
        other.record_micros(500);
        one.merge(other);
        assert_eq!(one.len(), 2);
        assert_eq!(one.percentile_ms(50.0), Some(0.5));
        assert_eq!(one.percentile_ms(99.0), Some(1.5));
    }
}

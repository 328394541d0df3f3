//! The one shape of an in-process cache here: two generations, bounded by a weight (a count,
//! or bytes). Entries go into the young generation; when it would outgrow its bound it
//! becomes the old one and the previous old one is dropped whole. An entry found in the old
//! generation moves back to the young one, so what is in use survives, and memory stays
//! under two bounds whatever the load, with no per-entry bookkeeping (ADRs 0017, 0018).
//! docs/architecture.md lists the caches built on it.

use std::collections::HashMap;
use std::hash::Hash;

/// Entries in two generations; see the module's notes.
pub struct Generations<K, V> {
    young: HashMap<K, V>,
    old: HashMap<K, V>,
    young_weight: usize,
    bound: usize,
    weigh: fn(&V) -> usize,
}

impl<K: Hash + Eq, V> Generations<K, V> {
    /// Generations of at most `bound` each, an entry weighing `weigh(entry)`.
    pub fn new(bound: usize, weigh: fn(&V) -> usize) -> Self {
        Generations { young: HashMap::new(), old: HashMap::new(), young_weight: 0, bound, weigh }
    }

    /// Generations of at most `bound` entries each.
    pub fn counted(bound: usize) -> Self {
        Self::new(bound, |_| 1)
    }

    /// The entry under `key`; one found in the old generation moves to the young one.
    pub fn get(&mut self, key: &K) -> Option<&V> {
        if !self.young.contains_key(key) {
            let (key, value) = self.old.remove_entry(key)?;
            self.insert(key, value);
        }
        self.young.get(key)
    }

    /// The entry under `key`, leaving it where it is.
    pub fn peek(&self, key: &K) -> Option<&V> {
        self.young.get(key).or_else(|| self.old.get(key))
    }

    /// Puts `value` under `key` in the young generation, first making it the old one if
    /// `value` would take it past its bound.
    pub fn insert(&mut self, key: K, value: V) {
        self.old.remove(&key);
        let weight = (self.weigh)(&value);
        let replaced = self.young.get(&key).map_or(0, self.weigh);
        if self.young_weight - replaced + weight > self.bound {
            self.old = std::mem::take(&mut self.young);
            self.young_weight = 0;
        }
        if let Some(replaced) = self.young.insert(key, value) {
            self.young_weight -= (self.weigh)(&replaced);
        }
        self.young_weight += weight;
    }

    /// Forgets the entry under `key`.
    pub fn remove(&mut self, key: &K) {
        if let Some(removed) = self.young.remove(key) {
            self.young_weight -= (self.weigh)(&removed);
        }
        self.old.remove(key);
    }

    /// Keeps only the entries `keep` accepts.
    pub fn retain(&mut self, mut keep: impl FnMut(&V) -> bool) {
        self.young.retain(|_, value| keep(value));
        self.old.retain(|_, value| keep(value));
        self.young_weight = self.young.values().map(self.weigh).sum();
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.young.clear();
        self.old.clear();
        self.young_weight = 0;
    }

    /// How many entries are kept.
    pub fn len(&self) -> usize {
        self.young.len() + self.old.len()
    }

    /// Whether nothing is kept.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The weight of the young generation.
    pub fn young_weight(&self) -> usize {
        self.young_weight
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entry_in_use_survives_a_generation_and_the_oldest_go() {
        let mut kept = Generations::counted(10);
        kept.insert("busy", 0);
        for id in 0..35 {
            kept.insert(id.to_string().leak() as &str, id);
            if id % 5 == 0 {
                assert!(kept.get(&"busy").is_some(), "read now and then, so kept");
            }
        }
        assert!(kept.len() <= 20);
        assert!(kept.peek(&"0").is_none(), "the oldest are dropped");
    }

    #[test]
    fn the_weight_counts_what_is_kept() {
        let mut kept: Generations<&str, String> = Generations::new(10, String::len);
        kept.insert("a", "xxx".to_owned());
        kept.insert("a", "xxxx".to_owned());
        kept.insert("b", "yy".to_owned());
        assert_eq!(kept.young_weight(), 6, "a replaced entry counts once");
        kept.insert("c", "zzzzz".to_owned());
        assert_eq!((kept.young_weight(), kept.len()), (5, 3), "past the bound: a new generation");
        assert_eq!(kept.get(&"a").map(String::len), Some(4), "moved back from the old one");
        assert_eq!(kept.young_weight(), 9);
        kept.retain(|value| value.len() > 4);
        assert_eq!((kept.young_weight(), kept.len()), (5, 1));
        kept.remove(&"c");
        assert!(kept.is_empty());
        assert_eq!(kept.young_weight(), 0);
    }
}

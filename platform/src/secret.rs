//! A setting that must never reach a log: passwords in connection strings, API hashes.

use std::fmt;
use std::str::FromStr;

/// Text kept out of `Debug` and `Display`, which print `[redacted]`, so that a settings
/// struct can derive `Debug` and be logged whole. [`Secret::expose`] is the one way to read
/// it, so that every use is visible in review. clap parses it from flags and the
/// environment through `From<String>`.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Secret(String);

/// What `Debug` and `Display` print instead of a secret.
pub const REDACTED: &str = "[redacted]";

impl Secret {
    /// Wraps a secret.
    pub fn new(value: impl Into<String>) -> Self {
        Self(value.into())
    }

    /// The secret itself, for the one place that needs it (a connection, a signature).
    pub fn expose(&self) -> &str {
        &self.0
    }

    /// Whether the secret is empty (an optional integration turned off).
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(REDACTED)
    }
}

impl fmt::Display for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(REDACTED)
    }
}

impl From<String> for Secret {
    fn from(value: String) -> Self {
        Self(value)
    }
}

impl From<&str> for Secret {
    fn from(value: &str) -> Self {
        Self(value.to_owned())
    }
}

impl FromStr for Secret {
    type Err = std::convert::Infallible;

    fn from_str(value: &str) -> Result<Self, Self::Err> {
        Ok(Self::from(value))
    }
}

#[cfg(test)]
mod tests {
    use super::{Secret, REDACTED};

    #[test]
    fn a_secret_prints_redacted_and_exposes_its_value_only_when_asked() {
        let secret: Secret = "postgres://navalha:s3nha@db/navalha".parse().expect("infallible");
        assert_eq!(format!("{secret}"), REDACTED);
        assert_eq!(format!("{secret:?}"), REDACTED);
        assert_eq!(format!("{:?}", Some(secret.clone())), format!("Some({REDACTED})"));
        assert_eq!(secret.expose(), "postgres://navalha:s3nha@db/navalha");
        assert!(!secret.is_empty());
        assert!(Secret::default().is_empty());
        assert_eq!(Secret::new("x"), Secret::from("x".to_owned()));
    }

    #[test]
    fn a_struct_deriving_debug_hides_its_secrets() {
        #[derive(Debug)]
        #[allow(dead_code)] // read only through Debug
        struct Settings {
            url: String,
            hash: Secret,
        }
        let settings = Settings { url: "https://api.example".into(), hash: "galax-hash-42".into() };
        let printed = format!("{settings:?} {settings:#?}");
        assert!(printed.contains("https://api.example"));
        assert!(!printed.contains("galax-hash-42"), "{printed}");
    }
}

//! The Ed25519 key pair that signs tokens, made on first start and kept in the database
//! so that every command-api instance signs with the same key.

use anyhow::Context;
use navalha_platform::auth::SIGNING_KEY_ID;
use ring::rand::SystemRandom;
use ring::signature::{Ed25519KeyPair, KeyPair};
use sqlx::PgPool;

/// The signing key pair: PKCS#8 private key and raw public key.
pub struct SigningKeys {
    /// PKCS#8 v2 document of the private key.
    pub private_pkcs8: Vec<u8>,
    /// The 32-byte public key.
    pub public_key: Vec<u8>,
}

impl SigningKeys {
    /// Reads the key pair, making and storing it first if there is none. Two instances
    /// starting together agree: the second insert does nothing and both read the first.
    pub async fn load_or_create(pool: &PgPool) -> anyhow::Result<Self> {
        let rng = SystemRandom::new();
        let pkcs8 = Ed25519KeyPair::generate_pkcs8(&rng)
            .map_err(|_| anyhow::anyhow!("cannot generate a key pair"))?;
        let pair =
            Ed25519KeyPair::from_pkcs8(pkcs8.as_ref()).map_err(|_| anyhow::anyhow!("bad generated key"))?;
        sqlx::query(
            "insert into signing_key (signing_key_id, algorithm, private_key, public_key)
             values ($1, 'EdDSA', $2, $3) on conflict do nothing",
        )
        .bind(SIGNING_KEY_ID)
        .bind(pkcs8.as_ref())
        .bind(pair.public_key().as_ref())
        .execute(pool)
        .await
        .context("storing the signing key")?;
        let (private_pkcs8, public_key): (Vec<u8>, Vec<u8>) =
            sqlx::query_as("select private_key, public_key from signing_key where signing_key_id = $1")
                .bind(SIGNING_KEY_ID)
                .fetch_one(pool)
                .await
                .context("reading the signing key")?;
        Ok(Self { private_pkcs8, public_key })
    }
}

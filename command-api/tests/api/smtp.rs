//! E-mail over SMTP, against a local server that speaks the protocol.

use std::sync::{Arc, Mutex};

use axum::http::{Method, StatusCode};
use navalha_harness::database::demo_database;
use serde_json::json;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

use crate::support::System;

/// What the fake server received: envelope lines and the message.
#[derive(Default, Debug)]
struct Received {
    commands: Vec<String>,
    data: String,
}

/// A minimal SMTP server (RFC 5321's happy path) on a free port; returns its URL.
async fn smtp_server(received: Arc<Mutex<Received>>) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let address = listener.local_addr().expect("address");
    tokio::spawn(async move {
        while let Ok((socket, _)) = listener.accept().await {
            let received = received.clone();
            tokio::spawn(async move {
                let (read, mut write) = socket.into_split();
                let mut lines = BufReader::new(read).lines();
                let _ = write.write_all(b"220 localhost ESMTP test\r\n").await;
                let mut in_data = false;
                while let Ok(Some(line)) = lines.next_line().await {
                    if in_data {
                        if line == "." {
                            in_data = false;
                            let _ = write.write_all(b"250 2.0.0 queued\r\n").await;
                        } else if let Ok(mut r) = received.lock() {
                            r.data.push_str(&line);
                            r.data.push('\n');
                        }
                        continue;
                    }
                    if let Ok(mut r) = received.lock() {
                        r.commands.push(line.clone());
                    }
                    let verb = line.split_whitespace().next().unwrap_or_default().to_uppercase();
                    let reply: &[u8] = match verb.as_str() {
                        "EHLO" => b"250-localhost\r\n250 8BITMIME\r\n",
                        "HELO" | "MAIL" | "RCPT" | "RSET" | "NOOP" => b"250 OK\r\n",
                        "DATA" => {
                            in_data = true;
                            b"354 end with .\r\n"
                        }
                        "QUIT" => {
                            let _ = write.write_all(b"221 bye\r\n").await;
                            break;
                        }
                        _ => b"502 not implemented\r\n",
                    };
                    let _ = write.write_all(reply).await;
                }
            });
        }
    });
    format!("smtp://{address}")
}

#[tokio::test]
async fn recovery_codes_are_sent_over_smtp_when_it_is_configured() {
    let pool = demo_database().await;
    let received = Arc::new(Mutex::new(Received::default()));
    let url = smtp_server(received.clone()).await;
    let system = System::start_with(pool, |settings| settings.smtp_url = Some(url.into())).await;
    let answer = system
        .call(
            Method::POST,
            "/api/session-professional/recovery-code",
            None,
            Some(json!({ "cpfOrEmail": "lider@navalha.dev" })),
        )
        .await;
    assert_eq!(answer.status, StatusCode::OK, "{answer:?}");
    assert!(system.mailed().await.is_empty(), "with SMTP nothing goes to the outbox");
    let received = received.lock().map(|r| (r.commands.clone(), r.data.clone())).unwrap_or_default();
    let (commands, data) = received;
    assert!(commands.iter().any(|c| c.starts_with("MAIL FROM:<nao-responda@navalha.dev>")), "{commands:?}");
    assert!(commands.iter().any(|c| c == "RCPT TO:<lider@navalha.dev>"), "{commands:?}");
    assert!(data.contains("Subject: Navalha: =?utf-8?") || data.contains("Subject: Navalha:"), "{data}");
    assert!(data.contains("recovery-data="), "the link is in the message: {data}");
}

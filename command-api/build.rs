// `sqlx::migrate!` embeds ../migrations at compile time, and stable Rust cannot tell cargo
// that a macro read a directory: without this, a new migration is not in the next build.
fn main() {
    println!("cargo:rerun-if-changed=../migrations");
}

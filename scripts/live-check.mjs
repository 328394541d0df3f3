#!/usr/bin/env node
// Checks that live changes (ADR 0011) pass a proxy: signs in, opens GET /api/changes and
// prints every event and keep-alive with its time, for `seconds` (default 45, past nginx's
// 30 s read timeout). Make any change in the app meanwhile and watch its `change` arrive.
//
//   node scripts/live-check.mjs https://navalha.example.com admin@example.com [seconds]
//   (the password is read from NAVALHA_PASSWORD)
const [origin = 'http://127.0.0.1:8080', email = 'admin@navalha.dev', seconds = '45'] = process.argv.slice(2);
const password = process.env.NAVALHA_PASSWORD ?? 'Navalha@2026';
const api = new URL('/api/', origin);

const login = await fetch(new URL('session-professional/login', api), {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ email, password }),
});
if (!login.ok) {
  console.error(`sign-in failed: ${login.status} ${await login.text()}`);
  process.exit(1);
}
const { Token } = await login.json();
const started = Date.now();
const stream = await fetch(new URL('changes', api), {
  headers: { Authorization: `Bearer ${Token}` },
  signal: AbortSignal.timeout(Number(seconds) * 1000),
});
console.log(`${stream.status} ${stream.headers.get('content-type')}`);
const reader = stream.body.pipeThrough(new TextDecoderStream()).getReader();
try {
  for (;;) {
    const { value, done } = await reader.read();
    if (done) {
      console.log(`+${Date.now() - started} ms: the stream ended (it should stay open)`);
      process.exit(1);
    }
    console.log(`+${Date.now() - started} ms: ${JSON.stringify(value)}`);
  }
} catch (error) {
  if (error.name !== 'TimeoutError') throw error;
  console.log(`open for ${seconds} s: ok`);
}

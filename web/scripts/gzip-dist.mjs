// Writes a .gz beside every text file of the built app, once, at the best level: the
// gateway serves it to browsers that accept gzip (ServeDir::precompressed_gzip), so the
// public booking page loads fast on a phone without compressing on every request.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { constants, gzipSync } from 'node:zlib';

const TEXT = /\.(js|css|html|svg|json|txt|map)$/;

function* files(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else if (TEXT.test(name)) yield path;
  }
}

const dist = process.argv[2] ?? 'dist';
let before = 0;
let after = 0;
for (const path of files(dist)) {
  const data = readFileSync(path);
  const packed = gzipSync(data, { level: constants.Z_BEST_COMPRESSION });
  // Tiny files gain nothing: the browser gets them as they are.
  if (packed.length >= data.length) continue;
  writeFileSync(`${path}.gz`, packed);
  before += data.length;
  after += packed.length;
}
console.log(`gzip-dist: ${Math.round(before / 1024)} KiB of text served as ${Math.round(after / 1024)} KiB`);

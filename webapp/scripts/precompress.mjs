// Writes a brotli (.br) and a gzip (.gz) copy beside every compressible file
// of the build, each at its best level, once at build time: the devserver
// sends the copy the browser accepts (shared/httpx/precompressed.go) instead
// of compressing on every request or not at all. A copy not smaller than
// its file by 5% is not written (nothing to gain). CloudFront compresses by
// itself; the deploy leaves these copies out (infra/stack/site.go).
// Usage: node scripts/precompress.mjs [distDir]
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const COMPRESSIBLE = /\.(?:html|js|mjs|css|svg|json|txt|xml|webmanifest)$/;

const dist = process.argv[2] ?? 'dist';
let files = 0;
let before = 0;
let after = 0;
for (const entry of fs.readdirSync(dist, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile() || !COMPRESSIBLE.test(entry.name)) continue;
  const file = path.join(entry.parentPath, entry.name);
  const raw = fs.readFileSync(file);
  const copies = {
    '.br': zlib.brotliCompressSync(raw, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
      },
    }),
    '.gz': zlib.gzipSync(raw, { level: zlib.constants.Z_BEST_COMPRESSION }),
  };
  for (const [suffix, data] of Object.entries(copies)) {
    if (data.length > raw.length * 0.95) continue;
    fs.writeFileSync(file + suffix, data);
  }
  files++;
  before += raw.length;
  after += copies['.br'].length;
}
console.log(`precompress: ${files} files, ${(before / 1024).toFixed(0)} KB, ${(after / 1024).toFixed(0)} KB as brotli`);

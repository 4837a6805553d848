// Prints the gzipped size of the JavaScript a first visit loads (the entry
// script, its modulepreloads and their static imports; lazy route chunks
// excluded) and fails when it exceeds the budget (DESIGN §10: 170 KB).
// Usage: node scripts/initial-js-size.mjs [distDir] [budgetKB]
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const dist = process.argv[2] ?? 'dist';
const budgetKb = Number(process.argv[3] ?? 170);
const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
const queue = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map((m) => m[1]);
const seen = new Set();
while (queue.length) {
  const file = queue.shift();
  if (seen.has(file)) continue;
  seen.add(file);
  const code = fs.readFileSync(path.join(dist, file), 'utf8');
  // Static imports only; import("./x.js") is a lazy chunk.
  for (const m of code.matchAll(/(?:^|[;\n}])\s*import\s*(?:[^'"()]*?from\s*)?["']\.\/([^"']+\.js)["']/g)) {
    queue.push(`assets/${m[1]}`);
  }
}
let total = 0;
for (const file of seen) {
  const gz = zlib.gzipSync(fs.readFileSync(path.join(dist, file))).length;
  total += gz;
  console.log(`${(gz / 1024).toFixed(2).padStart(8)} KB  ${file}`);
}
const totalKb = total / 1024;
console.log(`initial JS (gzip): ${totalKb.toFixed(2)} KB of ${budgetKb} KB budget`);
if (totalKb > budgetKb) {
  console.error('Initial JS is over budget.');
  process.exit(1);
}

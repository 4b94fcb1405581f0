// The page's minified copy (issue 20, page weight): every JS module, CSS sheet and JSON
// catalog of src/vertex/web, minified file for file into build/web (same paths, still ES
// modules importing each other by relative paths: no bundle), each with an external source
// map (fetched only by an open devtools) and precompressed .gz and .br copies. The server
// (vertex/server/pages/web.py) serves a built file when it is there and not older than its source,
// else the source: the source works as is; this copy is an optimisation.
//
//   node tools/build-web.mjs [SOURCE_DIR [OUT_DIR]]
//
// Run by `make setup` (and so `make serve`, `make test`) whenever a source file changed.
// Other files (the HTML pages, the icon, README.md) are not copied: they are served from
// the source. three.js's two modules (node_modules, served as vendor/three/build/…; the
// package ships no minified module) are minified too, without a source map. The whole folder is rebuilt each time (esbuild takes well under a second), so
// a deleted source leaves no built file behind; a file whose previous copy is newer than its
// source, made by the same esbuild and this same script, is carried over rather than made
// again (three.js's modules take most of the time, brotli at its best).

import { createHash } from "node:crypto";
import {
  copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync,
  writeFileSync,
} from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { transform, version } from "esbuild";

const here = dirname(fileURLToPath(import.meta.url));
const source = resolve(process.argv[2] ?? join(here, "..", "src", "vertex", "web"));
const out = resolve(process.argv[3] ?? join(here, "..", "build", "web"));
const modules = resolve(process.env.VERTEX_NODE_MODULES || join(here, "..", "node_modules"));
// What the page loads from node_modules, as the server serves it (vendor/<package>/<path>).
const VENDOR = ["three/build/three.module.js", "three/build/three.core.js"];

function* files(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else if (entry.isFile()) yield path;
  }
}

// Which loader minifies a file, by its ending; others are not built.
const LOADERS = { ".js": "js", ".css": "css" };

async function minify(rel, text, withMap = true) {
  const ending = rel.slice(rel.lastIndexOf("."));
  if (ending === ".json") return { code: JSON.stringify(JSON.parse(text)) };
  const loader = LOADERS[ending];
  if (!loader) return null;
  const result = await transform(text, {
    loader,
    minify: true,
    // No target: the syntax is kept as written (the source already runs in the browsers we
    // support); only whitespace, comments and local names go.
    sourcemap: withMap ? "external" : false,
    sourcefile: `source/${rel}`, // a name of its own in devtools (the content is in the map)
    sourcesContent: true,
    legalComments: "none",
    charset: "utf8", // the source's letters as they are (the default escapes each as \uXXXX)
  });
  if (!withMap) return { code: result.code };
  const map = `${basename(rel)}.map`;
  const link = loader === "css" ? `/*# sourceMappingURL=${map} */\n` : `//# sourceMappingURL=${map}\n`;
  return { code: result.code + link, map: result.map };
}

function write(path, bytes) {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, bytes);
}

function compressed(bytes) {
  return {
    gz: gzipSync(bytes, { level: 9 }),
    br: brotliCompressSync(bytes, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      },
    }),
  };
}

// Built into a fresh folder beside the old one, then swapped in: a server running meanwhile
// sees the old build or the new one (or, for a moment, none: then it serves the source).
const fresh = `${out}.new`;
rmSync(fresh, { recursive: true, force: true });
// What made a build: a previous build made otherwise is not reused.
const maker = `esbuild ${version} ${createHash("sha256").update(readFileSync(fileURLToPath(import.meta.url))).digest("hex")}\n`;
const MAKER = ".maker";
const reusable = existsSync(join(out, MAKER)) && readFileSync(join(out, MAKER), "utf8") === maker;
const endings = ["", ".map", ".gz", ".br"];

function carriedOver(rel, path) {
  if (!reusable) return false;
  const old = join(out, rel);
  if (!existsSync(old) || statSync(old).mtimeMs < statSync(path).mtimeMs) return false;
  const copies = endings.filter((e) => existsSync(old + e));
  if (!copies.includes(".gz") || !copies.includes(".br")) return false;
  mkdirSync(dirname(join(fresh, rel)), { recursive: true });
  for (const e of copies) copyFileSync(old + e, join(fresh, rel) + e);
  return true;
}
let reused = 0;
let count = 0;
let before = 0;
let after = 0;
const sources = [...files(source)].map((path) => [relative(source, path).split("\\").join("/"), path, true]);
for (const rel of VENDOR) sources.push([`vendor/${rel}`, join(modules, rel), false]);
for (const [rel, path, withMap] of sources) {
  const text = readFileSync(path, "utf8");
  if (carriedOver(rel, path)) {
    count += 1;
    reused += 1;
    before += Buffer.byteLength(text, "utf8");
    after += statSync(join(fresh, rel)).size;
    continue;
  }
  let built;
  try {
    built = await minify(rel, text, withMap);
  } catch (error) {
    console.error(`build-web: ${rel}: ${error.message}`);
    process.exit(1);
  }
  if (built === null) continue;
  const bytes = Buffer.from(built.code, "utf8");
  const target = join(fresh, rel);
  write(target, bytes);
  if (built.map) write(`${target}.map`, built.map);
  const { gz, br } = compressed(bytes);
  write(`${target}.gz`, gz);
  write(`${target}.br`, br);
  count += 1;
  before += Buffer.byteLength(text, "utf8");
  after += bytes.length;
}
writeFileSync(join(fresh, MAKER), maker);
rmSync(out, { recursive: true, force: true });
mkdirSync(dirname(out), { recursive: true });
renameSync(fresh, out);
const kb = (n) => (n / 1000).toFixed(1);
const where = relative(process.cwd(), out) || out;
console.log(
  `build-web: ${count} files minified into ${where} (${reused} unchanged, kept): ${kb(before)} -> ${kb(after)} KB`,
);

// Bundles the front-end sources (js/src) into the one self-contained ES module that anywidget
// and the offline replay pages load, and copies the stylesheet next to it:
//   node js/build.mjs           write leyline_widget/widgets/static/widget.{js,css}
//   node js/build.mjs --check   build in memory; exit 1 if the committed files differ
//   node js/build.mjs --watch   rebuild on every change (with ANYWIDGET_HMR=1, see README)
import { watch as watchFile } from "node:fs";
import { readFile, writeFile, mkdir } from "node:fs/promises";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";

const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
const SRC = join(ROOT, "js", "src");
const OUT = join(ROOT, "leyline_widget", "widgets", "static");
const JS_OUT = join(OUT, "widget.js");
const CSS_SRC = join(SRC, "widget.css");
const CSS_OUT = join(OUT, "widget.css");

const BANNER = "// Generated from js/src by `npm run build` (js/build.mjs): do not edit; edit js/src instead.\n" +
  "// One self-contained ES module: anywidget and the offline replay pages load it from a Blob URL.";

/** @type {import("esbuild").BuildOptions} */
const OPTIONS = {
  entryPoints: [join(SRC, "index.js")],
  bundle: true,
  format: "esm",
  platform: "browser",
  target: "es2022",
  minify: false,
  sourcemap: false,
  legalComments: "inline",
  charset: "utf8",
  banner: { js: BANNER },
  logLevel: "warning",
};

/** Reject a bundle anywidget could not load from a Blob URL: no imports, a default export. */
function verify(text) {
  const imports = text.match(/^\s*import\s.*$|\bimport\s*\(/gm);
  if (imports) throw new Error(`the bundle must import nothing, found: ${imports.join(" | ")}`);
  if (!/export\s*\{[^}]*\bas default\b[^}]*\};?\s*$/.test(text)) {
    throw new Error("the bundle must end with its default export ({ render })");
  }
}

/** The bundle's text, built in memory. */
async function bundle() {
  const result = await esbuild.build({ ...OPTIONS, write: false, outfile: JS_OUT });
  const text = result.outputFiles[0].text;
  verify(text);
  return text;
}

async function write() {
  const [js, css] = [await bundle(), await readFile(CSS_SRC, "utf8")];
  await mkdir(OUT, { recursive: true });
  await writeFile(JS_OUT, js);
  await writeFile(CSS_OUT, css);
  console.log(`wrote ${relative(ROOT, JS_OUT)} (${js.length} chars) and ${relative(ROOT, CSS_OUT)}`);
}

async function check() {
  const want = { [JS_OUT]: await bundle(), [CSS_OUT]: await readFile(CSS_SRC, "utf8") };
  const stale = [];
  for (const [path, text] of Object.entries(want)) {
    const have = await readFile(path, "utf8").catch(() => null);
    if (have !== text) stale.push(relative(ROOT, path) + (have === null ? " (missing)" : ""));
  }
  if (stale.length) {
    console.error(`The committed front-end bundle does not match js/src: ${stale.join(", ")}.\n` +
      "Run `npm run build` and commit the result.");
    process.exit(1);
  }
  console.log(`${relative(ROOT, JS_OUT)} and ${relative(ROOT, CSS_OUT)} match js/src`);
}

async function watch() {
  const copyCss = {
    name: "copy-css",
    setup(build) {
      build.onEnd(async (result) => {
        if (result.errors.length) return;
        await writeFile(CSS_OUT, await readFile(CSS_SRC, "utf8"));
        console.log(`${new Date().toLocaleTimeString()} rebuilt ${relative(ROOT, JS_OUT)}`);
      });
    },
  };
  await mkdir(OUT, { recursive: true });
  const ctx = await esbuild.context({ ...OPTIONS, outfile: JS_OUT, plugins: [copyCss], logLevel: "info" });
  await ctx.watch();
  // The stylesheet is not imported by the modules, so esbuild does not see it change.
  watchFile(CSS_SRC, async () => {
    await writeFile(CSS_OUT, await readFile(CSS_SRC, "utf8"));
    console.log(`${new Date().toLocaleTimeString()} copied ${relative(ROOT, CSS_OUT)}`);
  });
  console.log("watching js/src (Ctrl-C stops)");
}

const args = new Set(process.argv.slice(2));
try {
  if (args.has("--check")) await check();
  else if (args.has("--watch")) await watch();
  else await write();
} catch (err) {
  console.error(`js/build.mjs: ${err.message || err}`);
  process.exit(1);
}

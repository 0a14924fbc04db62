// The one build of the page: the TypeScript bundled and minified by esbuild into dist/,
// with the page and its style copied beside it (dist/ is not committed).
import { build } from "esbuild";
import { copyFileSync, mkdirSync, readdirSync, rmSync, statSync } from "node:fs";

rmSync("dist", { recursive: true, force: true });
mkdirSync("dist");
await build({
  entryPoints: { app: "src/main.ts" },
  bundle: true,
  minify: true,
  splitting: true, // the Discord SDK in its own chunk, loaded inside Discord only
  format: "esm",
  target: "es2020",
  outdir: "dist",
  chunkNames: "sdk-[hash]",
  legalComments: "none",
});
copyFileSync("src/index.html", "dist/index.html");
copyFileSync("src/style.css", "dist/style.css");
for (const name of readdirSync("dist")) {
  console.log(`dist/${name}: ${statSync(`dist/${name}`).size} bytes`);
}

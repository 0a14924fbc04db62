// The one build of the page: the TypeScript bundled and minified by esbuild into dist/,
// with the page and its style copied beside it (dist/ is not committed).
import { build } from "esbuild";
import { copyFileSync, mkdirSync, rmSync, statSync } from "node:fs";

rmSync("dist", { recursive: true, force: true });
mkdirSync("dist");
await build({
  entryPoints: ["src/main.ts"],
  bundle: true,
  minify: true,
  format: "esm",
  target: "es2020",
  outfile: "dist/app.js",
  legalComments: "none",
});
copyFileSync("src/index.html", "dist/index.html");
copyFileSync("src/style.css", "dist/style.css");
const size = statSync("dist/app.js").size;
console.log(`dist/app.js: ${size} bytes`);

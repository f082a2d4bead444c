// Minifies what the build writes for the page's first view (the hooks' shared helper): the
// module's glue (split-module.mjs), the loaders and the stylesheet (embed-loader.mjs), each
// before the build names it or its integrity hash is taken. esbuild, from www/node_modules
// (www/scripts/setup.sh installs it), leaves the code's meaning and its exports' names alone:
// it drops comments and spaces and shortens local names.
import { transformSync } from 'esbuild';

// MINIFY=off leaves them as they are (for measuring what minifying saves).
const off = process.env.MINIFY === 'off';

/** `code`, minified: an ES module (`module`) or a classic script. */
export function minifyJs(code, { module }) {
  if (off) return code;
  return transformSync(code, { loader: 'js', minify: true, ...(module ? { format: 'esm' } : {}) }).code;
}

/** A stylesheet, minified. */
export function minifyCss(text) {
  if (off) return text;
  return transformSync(text, { loader: 'css', minify: true }).code;
}

// Loads warcio.js: from $WARCIO_DIR/node_modules/warcio when WARCIO_DIR is
// set, else by the usual module resolution.
import path from "path";
import { pathToFileURL } from "url";

const dir = process.env.WARCIO_DIR;
export default dir
  ? await import(pathToFileURL(path.join(dir, "node_modules/warcio/dist/index.js")).href)
  : await import("warcio");

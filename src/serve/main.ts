/**
 * The web app's server, bundled on its own (dist/bundle/serve.cjs) so that only `recall serve`
 * loads it.
 */
export { startServer } from "./server.js";
export type { RunningServer, ServeOptions } from "./server.js";

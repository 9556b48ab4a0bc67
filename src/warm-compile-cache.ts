// Run once when the container image is built, by the image's own node with the flags and NODE_OPTIONS its
// CMD runs with and NODE_COMPILE_CACHE set (Dockerfile): loading these modules fills Node's compile cache
// with them, so that a container compiles none of them again on start. They are the modules of `serve`,
// with those it loads only for a key store file or the notification relay, and of `wait-ready`, the
// classic form's postStart hook. Loading them runs nothing: every command starts from main.ts.
import './cli.js';
import './cli/serve-command.js';
import './cli/wait-ready-command.js';
import './keys/key-store-reloader.js';
import './notify/start-notify-relay.js';

// The features whose settings `serve` reads beside the core's, and `doctor` checks with them: a problem
// in any of them stops the start with the core's, all named at once.
import { NOTIFY_CONFIG_PART } from '../notify/notify-config.js';

export const SERVE_CONFIG_PARTS = { notify: NOTIFY_CONFIG_PART };

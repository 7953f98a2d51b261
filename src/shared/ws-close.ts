/**
 * The WebSocket close codes (RFC 6455) exec and action sessions end with: normal, going away (server
 * stopping), policy violation (caller errors), internal error. A module of its own: both the session
 * served here and the session relayed through a node's tunnel use them, and neither may import the other.
 */
export const CLOSE_NORMAL = 1000;
export const CLOSE_GOING_AWAY = 1001;
export const CLOSE_POLICY = 1008;
export const CLOSE_INTERNAL = 1011;

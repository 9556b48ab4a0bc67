// The header the service sends with every callback, and its one value: the relay requires it (unless
// told not to), and `sfd-sidecar notify` and the emulator send it as the service does.
export const NOTIFICATION_FROM_HEADER = 'X-SFD-Notification-From';
/** The header as older clients spell it, accepted as well. */
export const NOTIFICATION_FROM_HEADER_OLD = 'X-Notification-From';
export const NOTIFICATION_FROM_VALUE = 'LLS';

/**
 * The web server's JSON log lines: the kit's logger, so they have the services' shape
 * ({"level":"info","time":"…","service":"web","msg":"…", …}, secrets redacted) and `make up` shows
 * them the same way. server.mjs sets its level from TROVE_LOG_LEVEL once the configuration is read.
 */
import { createLogger } from '@trove/kit/log';

export const log = createLogger({ service: 'web' });

import pino from 'pino';

/**
 * JSON lines for Cloud Logging: the level goes out as `severity` (DEBUG, INFO, WARNING, ERROR,
 * CRITICAL), the text as `message`. `DEBUG` turns on debug lines.
 */
export type Logger = pino.Logger;

const SEVERITY: Record<string, string> = {
  trace: 'DEBUG',
  debug: 'DEBUG',
  info: 'INFO',
  warn: 'WARNING',
  error: 'ERROR',
  fatal: 'CRITICAL',
};

export function createLogger(options: {
  debug: boolean;
  level?: string;
  destination?: pino.DestinationStream;
}): Logger {
  return pino(
    {
      level: options.level ?? (options.debug ? 'debug' : 'info'),
      messageKey: 'message',
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: {
        level: (label) => ({ severity: SEVERITY[label] ?? 'DEFAULT' }),
      },
      redact: {
        paths: ['req.headers.authorization', 'headers.authorization', '*.apiKey', '*.accessKey'],
        censor: '[redacted]',
      },
    },
    options.destination,
  );
}

/** For tests and tools that must stay quiet. */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}

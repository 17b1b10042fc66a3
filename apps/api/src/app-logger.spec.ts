import pino from 'pino';
import { Writable } from 'node:stream';
import { AppLogger } from './app-logger';

/** Start-up prints the first-run credentials: Nest's inventory of modules and routes must not bury them. */
describe('AppLogger', () => {
  const lines: Array<{ level: number; context?: string; msg: string }> = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()));
      done();
    },
  });
  // nestjs-pino keeps the first pino instance it is given for the whole process: one for every test.
  const root = pino({ level: 'info' }, sink);
  const logger = new AppLogger(root);
  beforeEach(() => {
    lines.length = 0;
    root.level = 'info';
  });

  it.each(['InstanceLoader', 'RoutesResolver', 'RouterExplorer'])('logs %s at debug, not at info', (context) => {
    logger.log('Mapped {/health/live, GET} route', context);
    expect(lines).toEqual([]);

    root.level = 'debug';
    logger.log('Mapped {/health/live, GET} route', context);
    expect(lines).toEqual([expect.objectContaining({ level: 20, context, msg: 'Mapped {/health/live, GET} route' })]);
  });

  it('keeps every other context at its level', () => {
    logger.log('Nest application successfully started', 'NestApplication');
    logger.warn('slow', 'Database');
    expect(lines.map((line) => [line.level, line.context, line.msg])).toEqual([
      [30, 'NestApplication', 'Nest application successfully started'],
      [40, 'Database', 'slow'],
    ]);
  });
});

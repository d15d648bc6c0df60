/**
 * Imported first by the commands that read or write a few records and exit (show, judge, …).
 * zod compiles a fast parser for each object schema on its first use; that pays off in a long
 * run that parses thousands of events, but in a process that parses a few dozen it costs more
 * than it saves (reading a small journal: ~28 ms compiled vs ~13 ms interpreted here). `run`,
 * `resume` and `watch` do not import this.
 */
import * as z from 'zod';

z.config({ jitless: true });

/**
 * Runs inside the bubblewrap sandbox, in front of every judge or grader program
 * (docs/design/isolation.md):
 *
 *   node sandbox-relay.js --lifeline <fd> [--proxy <unix socket> <port>] -- <program> [args…]
 *
 * It keeps the sandbox from outliving its runner. Descriptor `<fd>` is a pipe the runner holds
 * open while it waits (run-process.ts ExtraFd `lifeline`); it closes when the runner dies,
 * however it dies, even before bubblewrap has armed `--die-with-parent` (which bubblewrap does
 * only once its own set-up is done: a runner killed in those first milliseconds used to leave
 * the sandbox running for good). When it closes, when the program exits, or when this relay is
 * told to stop (SIGTERM, SIGINT, SIGHUP), every other process of the sandbox is killed and the
 * relay exits: bubblewrap's init, left with no child, ends the sandbox.
 *
 * With `--proxy`: the sandbox has no network but its own loopback, and the runner's model proxy
 * is reached through a Unix socket bound in; programs (the built-in judge's SDK clients
 * included) want an HTTP address, so the relay listens on 127.0.0.1:<port> and passes every
 * connection's bytes to the socket unchanged. The runner's token still guards the proxy.
 *
 * The program gets the same stdio and no other descriptor (closeInherited); the relay ends with
 * its exit code (128 + the signal's number when a signal ended it).
 */
import { spawn } from 'node:child_process';
import { closeSync, readdirSync, readFileSync } from 'node:fs';
import { connect, createServer, Socket } from 'node:net';
import { constants } from 'node:os';

interface RelayArgs {
  lifeline: number;
  proxy?: { socket: string; port: number };
  program: string;
  args: string[];
}

function parseArgs(argv: readonly string[]): RelayArgs | undefined {
  const end = argv.indexOf('--');
  if (end < 0 || argv[0] !== '--lifeline') return undefined;
  const options = argv.slice(0, end);
  const [program, ...args] = argv.slice(end + 1);
  const lifeline = Number(options[1]);
  if (program === undefined || !Number.isInteger(lifeline) || lifeline < 3) return undefined;
  if (options.length === 2) return { lifeline, program, args };
  const [flag, socket, port] = options.slice(2);
  if (flag !== '--proxy' || socket === undefined || port === undefined || options.length !== 5) {
    return undefined;
  }
  return { lifeline, proxy: { socket, port: Number(port) }, program, args };
}

/**
 * Kills every other process of the sandbox and exits. kill(-1) reaches every process this one
 * may signal but init and itself: here, the sandbox's PID namespace, where this relay is PID 2
 * (bubblewrap's init is 1). Outside one (never how it is started) it would reach every process
 * of the user, so it is only sent from PID 2.
 */
function endSandbox(code: number): never {
  if (process.pid === 2) {
    try {
      process.kill(-1, 'SIGKILL');
    } catch {
      // nothing else is left
    }
  }
  process.exit(code);
}

const O_CLOEXEC = 0o2000000;

/**
 * Closes every descriptor above stdio that this relay inherited, but the lifeline: the runner
 * passes on, unawares, whatever it was itself given without close-on-exec (a shell's, a service
 * manager's), and one open on a host folder would lead the program out of its mounts. Node's
 * own descriptors are close-on-exec and stay.
 */
function closeInherited(keep: number): void {
  for (const name of readdirSync('/proc/self/fd')) {
    const fd = Number(name);
    if (fd < 3 || fd === keep) continue;
    try {
      const flags = /^flags:\s+([0-7]+)/m.exec(readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8'));
      if (flags?.[1] !== undefined && (Number.parseInt(flags[1], 8) & O_CLOEXEC) === 0) closeSync(fd);
    } catch {
      // The listing's own descriptor, already closed.
    }
  }
}

function exitCodeOf(code: number | null, signal: NodeJS.Signals | null): number {
  if (code !== null) return code;
  return 128 + (signal === null ? 9 : (constants.signals[signal] ?? 9));
}

function startProgram(relay: RelayArgs): void {
  const child = spawn(relay.program, relay.args, { stdio: 'inherit' });
  child.on('error', (error) => {
    process.stderr.write(`cannot start ${relay.program}: ${error.message}\n`);
    endSandbox(127);
  });
  child.on('exit', (code, signal) => endSandbox(exitCodeOf(code, signal)));
}

function relayProxy(proxy: { socket: string; port: number }, then: () => void): void {
  const server = createServer((client) => {
    const upstream = connect(proxy.socket);
    client.pipe(upstream);
    upstream.pipe(client);
    const close = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', close);
    upstream.on('error', close);
  });
  server.listen(proxy.port, '127.0.0.1', then);
}

const relay = parseArgs(process.argv.slice(2));
if (relay === undefined) {
  process.stderr.write(
    'usage: sandbox-relay --lifeline <fd> [--proxy <unix socket> <port>] -- <program> [args…]\n',
  );
  process.exit(2);
}

closeInherited(relay.lifeline);

// Nothing is ever written on it: its end, or an error, means the runner is gone. Node makes the
// descriptor close-on-exec, so the program does not inherit it.
const lifeline = new Socket({ fd: relay.lifeline, readable: true, writable: false });
lifeline.on('end', () => endSandbox(1));
lifeline.on('error', () => endSandbox(1));
lifeline.resume();

for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
  process.on(signal, () => endSandbox(128 + constants.signals[signal]));
}

if (relay.proxy === undefined) startProgram(relay);
else relayProxy(relay.proxy, () => startProgram(relay));

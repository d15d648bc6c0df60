/**
 * Runs inside the bubblewrap sandbox, in front of the judge or grader program
 * (docs/design/isolation.md): `node sandbox-relay.js <unix socket> <port> <program> [args…]`. The
 * sandbox has no network but its own loopback, and the runner's model proxy is reached through a
 * Unix socket bound in; programs (the built-in judge's SDK clients included) want an HTTP address,
 * so this relay listens on 127.0.0.1:<port> and passes every connection's bytes to the socket
 * unchanged. The runner's token still guards the proxy. The relay then starts the program
 * with the same stdio and ends with its exit code (or signal).
 */
import { spawn } from 'node:child_process';
import { connect, createServer } from 'node:net';

const [socketPath, portText, program, ...args] = process.argv.slice(2);
if (socketPath === undefined || portText === undefined || program === undefined) {
  process.stderr.write('usage: sandbox-relay <unix socket> <port> <program> [args…]\n');
  process.exit(2);
}

const server = createServer((client) => {
  const upstream = connect(socketPath);
  client.pipe(upstream);
  upstream.pipe(client);
  const close = () => {
    client.destroy();
    upstream.destroy();
  };
  client.on('error', close);
  upstream.on('error', close);
});

server.listen(Number(portText), '127.0.0.1', () => {
  const child = spawn(program, args, { stdio: 'inherit' });
  child.on('error', (error) => {
    process.stderr.write(`cannot start ${program}: ${error.message}\n`);
    process.exit(127);
  });
  child.on('exit', (code, signal) => {
    server.close();
    if (signal !== null) process.kill(process.pid, signal);
    process.exit(code ?? 1);
  });
});

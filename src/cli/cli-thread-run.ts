// The command line in its worker thread (cli-thread-worker.ts loads it): runs a command and posts its output back.
import { parentPort, workerData } from 'node:worker_threads';
import { readStream } from '../load/read-source.js';
import type { CliHostMessage, CliThreadData, CliThreadMessage } from './cli-thread.js';
import { runCli } from './main.js';

const port = parentPort;
if (port) {
  const send = (message: CliThreadMessage) => port.postMessage(message);
  const data = workerData as CliThreadData;
  const stopping = new AbortController();
  const onStop = (message: CliHostMessage) => {
    if (message.kind === 'stop') stopping.abort();
  };
  const code = await runCli(data.argv, {
    stdout: (text) => send({ kind: 'stdout', text }),
    stderr: (text) => send({ kind: 'stderr', text }),
    color: data.color,
    cwd: data.cwd,
    stderrIsTTY: data.stderrIsTTY,
    env: process.env,
    ...(data.columns ? { columns: data.columns } : {}),
    readStdin: (maxBytes) => {
      send({ kind: 'stdin' });
      return readStream(process.stdin, maxBytes);
    },
    stopSignal: () => {
      port.on('message', onStop);
      send({ kind: 'listen-stop' });
      return stopping.signal;
    },
  });
  // The listener for `stop` would keep this thread alive once the command has returned.
  port.off('message', onStop);
  send({ kind: 'exit', code });
}
